package selfplay

import (
	"fmt"
	"reflect"
	"time"
)

// Differ returns where a and b first differ, field by field, unexported fields
// included ("" when they do not): the check that a state restored from a snapshot
// or kept in memory is the state a replay gives. A nil and an empty slice or map are
// the same (JSON with omitempty, the hashes and len do not tell them apart); pointers
// are compared by what they point to, and times by the instant they name.
func Differ(a, b any) string {
	return differ(reflect.ValueOf(a), reflect.ValueOf(b), "", map[[2]uintptr]bool{})
}

func differ(a, b reflect.Value, path string, seen map[[2]uintptr]bool) string {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return path + ": one is missing"
		}
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s, want %s", path, a.Type(), b.Type())
	}
	if a.Type() == reflect.TypeFor[time.Time]() && a.CanInterface() {
		if ta, tb := a.Interface().(time.Time), b.Interface().(time.Time); !ta.Equal(tb) {
			return fmt.Sprintf("%s: %v, want %v", path, ta, tb)
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil and not nil"
			}
			return ""
		}
		key := [2]uintptr{a.Pointer(), b.Pointer()}
		if key[0] == key[1] || seen[key] {
			return ""
		}
		seen[key] = true
		return differ(a.Elem(), b.Elem(), path, seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil and not nil"
			}
			return ""
		}
		return differ(a.Elem(), b.Elem(), path, seen)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := differ(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d elements, want %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := differ(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d keys, want %d", path, a.Len(), b.Len())
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, it.Key())
			}
			if d := differ(it.Value(), bv, fmt.Sprintf("%s[%v]", path, it.Key()), seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func:
		if a.Pointer() != b.Pointer() {
			return path + ": another function"
		}
		return ""
	case reflect.Bool:
		return cmpOne(path, a.Bool(), b.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOne(path, a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmpOne(path, a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmpOne(path, a.Float(), b.Float())
	case reflect.String:
		return cmpOne(path, a.String(), b.String())
	}
	return fmt.Sprintf("%s: cannot compare a %s", path, a.Kind())
}

func cmpOne[T comparable](path string, a, b T) string {
	if a != b {
		return fmt.Sprintf("%s: %v, want %v", path, a, b)
	}
	return ""
}

// Unencoded lists the fields of type t that encoding/json leaves out (unexported, or
// tagged "-"), reached through the fields it encodes (slices, arrays, maps and
// pointers followed), as paths from t: "state.story", "player.tally". A codec that
// encodes a state's exported fields as JSON must handle each of them by hand; a test
// comparing this list with the codec's own fails when a field is added that the codec
// would silently drop.
func Unencoded(t reflect.Type) []string {
	var out []string
	unencoded(t, map[reflect.Type]bool{}, &out)
	return out
}

func unencoded(t reflect.Type, seen map[reflect.Type]bool, out *[]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			*out = append(*out, t.Name()+"."+f.Name)
			continue
		}
		unencoded(f.Type, seen, out)
	}
}
