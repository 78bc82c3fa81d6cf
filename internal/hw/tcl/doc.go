// Package tcl is the cabinet's side of a gaming ticket printer speaking
// TCL, the template command language of FutureLogic GEN2/GEN3/GEN5,
// TransAct Epic 950 and Nanoptix PayCheck printers (docs/tito.md, "The
// printer"; platform.md §5). The emulator for tests is tclemu.
//
// The conversation, in the public descriptions of TCL: commands are
// framed by carets with '|' after each field (^P|T|1|data|…|^); ENQ
// (0x05) asks the status at any time, answered with
// *S|unit|firmware|f1|f2|f3|f4|f5|P<template>|* (see Flags). The cabinet
// defines its ticket as RAM regions (^R) gathered in a template (^T),
// then prints one ticket per ^P command and polls the status until the
// printer reports the validation number printed and is no longer busy.
//
// Print is the only way to print. It refuses a bad ticket before sending
// anything (*TicketError) and reports every printer failure as a
// *PrintError whose Stage tells the controller what may be on paper; the
// money rule the controller follows around it is in Print's comment.
package tcl
