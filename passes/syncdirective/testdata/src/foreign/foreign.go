// Package foreign annotates another package's declarations.
package foreign

import "ext"

//sync:msg ext.Header Height,Round
//sync:send ext.Broadcast
var _ ext.Header
