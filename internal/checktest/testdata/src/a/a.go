// Package a has one case of each outcome of a check whose expectations
// belong to the analyzer alpha.
package a

var alpha1 = 0 // want "alpha saw alpha1"

var beta1 = 0 // want "beta saw beta1"

var alpha2 = 0 // want "alpha saw something else"

var alpha3 = 0

var other = 0 // want "nothing reports this"

// want +1 "alpha saw alpha4"
var alpha4 = 0

var factful = 0 // want factful:"a fact"
