package smallworld

// Gnomes (Small World Underground, Gnomi): while active (sources §4, ★ §7.10), an
// opponent's race, power, places and relics do not help him conquer a Gnome region:
// no cost cut (Ogres, Cultists, Flames …), no reach or extra adjacency (Flying,
// Lizardmen, Spiderines …); what makes a conquest dearer still applies (Mummies +1,
// EN18). Nor do they take a Gnome token (Vampire, the Orb: "Un singolo segnalino
// Gnomo è comunque protetto"), send the Balrog on them, or take coins for bordering
// them (Thieving, the Ring): the Italian "contro di te" (the authority) covers every
// effect against the Gnomes, ★ en §7.10; the English reads narrower (sources §4).
// All of these ask the one check, state.protected. The Liches' coin is the
// conqueror's own payment, not an effect against the Gnomes: unchanged.
var gnomes = &ability{name: "Gnomes", kind: kindRace, pack: packUnderground, shield: true}

func init() { register(gnomes) }
