package display

import "errors"

// ErrNoDisplay: no display to open a window on (no DISPLAY or
// WAYLAND_DISPLAY on a desktop build). Tests skip on it.
var ErrNoDisplay = errors.New("display: no display available (set DISPLAY, e.g. run under xvfb-run)")

// ErrWindow: raylib could not open the window or its OpenGL context.
var ErrWindow = errors.New("display: cannot open the window")

// ErrFont: an embedded font could not be rasterised.
var ErrFont = errors.New("display: cannot load font")

// ErrExport: a screenshot could not be written.
var ErrExport = errors.New("display: cannot write the screenshot")

// ErrClosed: the offscreen renderer was used after Close.
var ErrClosed = errors.New("display: renderer closed")
