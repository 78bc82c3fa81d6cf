// Package selftest is the technician's hardware self-test (`cabinet hwtest`,
// platform.md §5): it lights each lamp in turn (every button lamp, then the
// tower light's two lamps), reports every input as it arrives (button
// presses, door and key switches, bills) and decodes bills without crediting
// them: it holds no store and no meters, so nothing it sees is money.
//
// Run works on any hw backend (sim or periph); it reports Lines to a
// callback, and a Screen turns them into the self-test screen's view.
package selftest
