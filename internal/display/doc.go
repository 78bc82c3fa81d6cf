// Package display draws the cabinet with raylib: it turns a *view.Snapshot
// (committed state published by the controller) into a 1280×720 frame, and
// keyboard, mouse and touch into hardware inputs. It never touches the store
// and never blocks on it (platform.md §7); every string comes from the
// i18n catalogue in the snapshot's language, so switching is immediate.
//
// # API
//
//   - Run(ctx, Options, snap, in) opens the window and draws snap() every
//     frame until ctx is done or the window closes. It must run on the main
//     OS thread (cmd/cabinet locks it with runtime.LockOSThread).
//   - Screenshot(snap, path) renders one frame to a PNG in a hidden window;
//     NewOffscreen keeps that window open to render many (tests, tools).
//
// raylib holds one window per process: use one of Run, Screenshot or an
// Offscreen at a time.
//
// The package holds no snapshots of its own: its tests, goldens and
// `cabinet screenshot` draw the screens of internal/scenario, scripts played
// through the real controller. Goldens are full-size frames compared pixel
// by pixel (golden_test.go): one changed digit or card fails them.
//
// # Screens
//
// Boot; attract loop; game menu; one table per game (Royal Poker with its
// progressive meter, Free Bet with its tokens drawn as gold octagons, Zappit
// with zapped hands marked by a bolt, Classic, and Poker Duel with the Baron,
// a clothed cartoon gentleman whose hat, glasses, scarf, jacket, gloves and
// shoes come off and return, and a victory scene); help and paytables (rules,
// pays and RTP exactly as given in Snapshot.Help, with how to play, paged by
// SPOT/BET+ as the layout needs; Poker Duel's pot, hand ranking, deck and
// level, and why it has no return figure); audit (meters, game recall
// redrawn as a scaled table picture, event log, tickets, self-test, program
// SHA-256); operator menu; hardware self-test; tilt and handpay overlays
// over the frozen screen; "game recovered" and transient notices.
//
// Along the bottom is the button panel: one on-screen button per hw.Button,
// in panel order, lit exactly when its lamp is in Snapshot.Lamps, and
// clickable or touchable (a click presses the button like the physical one;
// the controller decides whether it is legal).
//
// # Keyboard (simulator)
//
// keymap (keys.go) maps keys to buttons, switches, bills and the jam; the
// README's table of it is generated from it and checked by
// TestReadmeKeyMap, so it cannot go stale.
//
// Keys are named by their place on a US keyboard (GLFW). With
// Options.Legend the key of each button is printed on it, a strip lists the
// bills and switches, and ESC closes the window; without it (a cabinet) ESC
// does nothing.
//
// # Presentation
//
//   - Pacing (pace.go): a committed step is replayed card by card from the
//     shoe, the hole card turning before the dealer draws; results and
//     meters wait for the reveal; only cards of the last committed snapshot
//     are drawn; a resumed round, the first snapshot and another screen show
//     at once; a press during a reveal finishes it (the controller consumes
//     it and counts it in Snapshot.Hurry). Snapshot.DealPaceMS (NoPace: off).
//   - What is shown is accepted (report.go): Options.Shown hears each
//     picture number (Snapshot.Present) once a frame shows it in full, and
//     once it has then stayed Snapshot.HoldMS; the controller lights the
//     table's buttons only then (controller/shown.go).
//   - Sound (sound.go, audio.go): card, chip, win, blackjack, button and
//     tilt effects synthesised by code, cued by the drawn committed
//     pictures, played only when raylib has an audio device, when the
//     snapshot's Sound (operator) is on, at Options.Volume.
//   - Refusals: Snapshot.Message names why an input was refused
//     (cabinet.Notice*); it is drawn at the table, the menu, attract and
//     inside the tilt and handpay overlays; it fades after view.RefusalMS
//     (notice.go) and never covers a settled round's result (it goes under
//     it). Table limits are drawn at the table; between rounds SPECIAL
//     reads "Chip <value>". A handpay the attendant has just paid
//     (Snapshot.Paid) is confirmed, with its amount, where a refusal would
//     go; the attract loop's demo waits while the attract screen carries
//     either.
//   - Text fit (ink.go): tests record every string drawn, measured with
//     the real font, with the box it must stay in and the panels, cards
//     and chips around it; TestTextFits walks every screen of every game in
//     both languages and fails on text that overflows, overlaps or is cut.
//   - Attract demo (demo.go): Options.Demo's pictures take turns with the
//     attract screen, marked DEMONSTRATION.
//   - Frame cost (layers.go): the still picture of a snapshot is cached in
//     a render texture; each frame draws it and the moving parts over it.
//     BenchmarkFrame reports busy, empty and full frames and busy/empty.
//
// # Assets
//
// Cards, chips, tokens, the bolt and the Baron are drawn with raylib
// primitives by this package. The fonts are DejaVu Sans and DejaVu Sans Bold
// (Bitstream Vera licence, assets/LICENSE-DejaVu.txt), embedded.
package display
