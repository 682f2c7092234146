package engine

// OutcomeJSON is outcomeJSON, for the tests.
var OutcomeJSON = outcomeJSON

// PlainNames is plainNames, for the tests.
var PlainNames = plainNames
