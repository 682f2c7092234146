package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/viper"

	"github.com/turnmail/turnmail/internal/typo"
)

// EnvPrefix starts the environment variable of every key: imap.password is
// TURNMAIL_IMAP_PASSWORD.
const EnvPrefix = "TURNMAIL_"

// testVariables are the TURNMAIL_* variables of the test suites (make test, soak,
// bench, CI), which turnmail itself never reads: names, or prefixes ending in "_".
var testVariables = []string{"SOAK", "LOAD", "BOTS_DUMP", "REAL_", "TEST_", "E2E_", "BROWSER_"}

// Keys returns every configuration key, sorted: imap.addr, limits.max_mail_bytes …
func Keys() []string {
	keys := make([]string, 0, len(Defaults))
	for k := range Defaults {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// EnvName returns the environment variable of a configuration key.
func EnvName(key string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// unknownKeys reports every key of the configuration file and every TURNMAIL_*
// variable of environ that is no configuration key, each with the nearest known one.
func unknownKeys(v *viper.Viper, file string, environ []string) []error {
	var errs []error
	for _, k := range v.AllKeys() {
		if _, ok := Defaults[k]; ok {
			continue
		}
		where := "the configuration"
		if file != "" {
			where = file
		}
		if section := k + "."; slices.ContainsFunc(Keys(), func(known string) bool { return strings.HasPrefix(known, section) }) {
			errs = append(errs, fmt.Errorf("%s: %s is a section (e.g. %s.addr), not a value", where, k, k))
			continue
		}
		errs = append(errs, fmt.Errorf("%s: unknown key %s%s", where, k, suggest(k, Keys())))
	}
	envs := make([]string, 0, len(Defaults))
	for _, k := range Keys() {
		envs = append(envs, EnvName(k))
	}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		rest, ok := strings.CutPrefix(name, EnvPrefix)
		if !ok || slices.Contains(envs, name) || slices.ContainsFunc(testVariables, func(t string) bool {
			return rest == t || strings.HasSuffix(t, "_") && strings.HasPrefix(rest, t)
		}) {
			continue
		}
		errs = append(errs, fmt.Errorf("environment: unknown variable %s%s", name, suggest(name, envs)))
	}
	return errs
}

// suggest returns " (did you mean K?)" for the known key K nearest to key, when
// one is near enough to be a misspelling, else a pointer to the documented keys.
func suggest(key string, known []string) string {
	best, bestD := "", len(key)+1
	for _, k := range known {
		if d := typo.Distance(strings.ToLower(key), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" && bestD <= max(2, len(key)/3) {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return " (config.example.yaml lists every key)"
}
