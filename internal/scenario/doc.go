// Package scenario plays scripts of inputs — bills, buttons, keys, doors,
// power cuts — through the real controller on a real bbolt store in a
// directory of the caller's, with a seeded RNG and a stepping clock, so the
// same script gives the same screens on every run. Every screen the display
// is tested against (goldens, `cabinet screenshot`, README pictures) is a
// shot of one of these scenarios: what the screens show is what the live
// program commits, never a hand-made snapshot.
//
// # Script
//
// One action per line; "#" starts a comment:
//
//	press deal | switch main_door on | bill 20.00 | jam on   the sim panel (hw/sim.Script)
//	! press deal        the same, but the cabinet must refuse it
//	menu freebet        press SPOT on the menu until that game is highlighted
//	autoplay 40 [game…] play whole rounds with the basic strategy (the games in turn)
//	powercut            drop the controller and boot a new one on the same store
//	shot NAME           capture the committed snapshot as screen NAME
//	shown | held        (Options.Display) the window has shown the picture
//	                    published in full | and held its result
//
// An input the cabinet refuses fails the play unless the line starts with
// "!", and a "!" line the cabinet accepts fails it too: a scenario cannot
// drift into showing something other than what it says.
//
// # Screens
//
// Screens() names every screen and the scenario that shows it; Screen plays
// it. The hardware self-test (no controller, no store) is played through
// the real selftest.Run on the sim panel.
package scenario
