package smallworld

// Tomb (Non morti, Small World Underground §4.17): going into decline the race keeps
// all its tokens on the map (★: always); a conquered region's tokens but one are
// redeployed at the end of the opponent's turn as if active (the core does so for
// every race in decline), and the race leaves the map with its last region.
var tomb = &ability{name: "Tomb", kind: kindPower, pack: packUnderground, keepAllInDecline: true}

func init() { register(tomb) }
