package handleruse // want package:`foreign\(1 msgs, 0 comms, 1 processes, 1 handlers\)`

// handleruse sees the annotations of package handlers through facts, and
// annotates declarations with the forms that name them.

import "handlers"

// Driver is tagged here, by name.
type Driver struct { // want Driver:`process\(Hdr\.Term,Role\)`
	Hdr  handlers.Hdr
	Role handlers.Role
}

//sync:tag Driver Hdr.Term,Role

// Run is named as a handler.
func (d *Driver) Run(m handlers.Message) {} // want Run:`handler\(0\)`

//sync:handler (*Driver).Run

//sync:tag handlers.Replica View
//sync:handler handlers.(*Replica).OnTimeout

//sync:local handlers.Message From==0 // a local condition added here travels on
