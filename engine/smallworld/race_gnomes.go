package smallworld

// Gnomes (Small World Underground, Gnomi): while active (sources §4, ★ §7.10), an
// opponent's race, power, places and relics do not help him conquer a Gnome region:
// no cost cut (Ogres, Cultists, Flames …), no reach or extra adjacency (Flying,
// Lizardmen, Spiderines …); what makes a conquest dearer still applies (Mummies +1,
// EN18). Coins taken (Thieving, Ring, Liches) are not blocked. The core's shield
// (state.shielded) is the hook other abilities ask (Vampire's lone token, Balrog).
var gnomes = &ability{name: "Gnomes", kind: kindRace, pack: packUnderground, shield: true}

func init() { register(gnomes) }
