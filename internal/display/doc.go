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
// pays and RTP exactly as given in Snapshot.Help); audit (meters, game recall
// redrawn as a scaled table picture, event log, self-test, program SHA-256);
// operator menu; hardware self-test; tilt and handpay overlays over the
// frozen screen; "game recovered" and transient notices.
//
// Along the bottom is the button panel: one on-screen button per hw.Button,
// in panel order, lit exactly when its lamp is in Snapshot.Lamps, and
// clickable or touchable (a click presses the button like the physical one;
// the controller decides whether it is legal).
//
// # Keyboard (simulator)
//
//	D deal      H hit      S stand     X double    P split
//	Y yes       N no       Z special   B bet+      R rebet
//	C clear     O spot     F1 help     G game      Q cash out
//	1 2 3 4 5   insert a bill of 5, 10, 20, 50, 100 (currency units)
//	M main door   K cash door   A audit key   T reset key   E operator key
//	J jam / free the bill acceptor (a bill-jam tilt)
//
// Keys are named by their place on a US keyboard (GLFW). With
// Options.Legend the key of each button is printed on it, a strip lists the
// bills and switches, and ESC closes the window; without it (a cabinet) ESC
// does nothing.
//
// # Assets
//
// Cards, chips, tokens, the bolt and the Baron are drawn with raylib
// primitives by this package. The fonts are DejaVu Sans and DejaVu Sans Bold
// (Bitstream Vera licence, assets/LICENSE-DejaVu.txt), embedded.
package display
