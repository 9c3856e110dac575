package vettool

// MentionsDirective exports mentionsDirective to the tests.
var MentionsDirective = mentionsDirective
