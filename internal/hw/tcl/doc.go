// Package tcl is the cabinet's side of a gaming ticket printer speaking
// TCL, the template command language of FutureLogic GEN2/GEN3/GEN5,
// TransAct Epic 950 and Nanoptix PayCheck printers (docs/tito.md, "The
// printer"). The emulator for tests is tclemu.
package tcl
