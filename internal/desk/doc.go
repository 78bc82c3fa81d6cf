// Package desk holds the cabinet's desks, the features that serve a
// device for the controller: the note desk (NoteDesk: notes, bills and
// tickets in from the serial note validator) and the ticket desk (tickets
// out on the printer, numbered by the casino system). One package for
// both, because ticket in and ticket out share the TITO configuration,
// its words and the casino system's wait; each desk still has its own
// committed values (Notes, Tickets) and its own Ledger, which reaches
// nothing of the controller's committed state but the money and them.
//
// A desk speaks the devices' words (internal/hw) to the drivers and money
// events to the controller. It never imports the controller (nor the
// display): the controller gives it a Ledger (a read of the committed
// values it needs and a commit) and a cabinet interface (acceptance, the
// screen's words), and routes device events and host requests to it. The
// controller's button table alone judges a press; it reads the desks'
// committed values for that.
package desk
