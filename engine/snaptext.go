package engine

import (
	"encoding/json"
	"fmt"
)

// SnapText is a Text whose arguments keep their Go types through JSON: a Term stays a
// Term, an int an int. Snapshots encode the texts a state keeps (the journal of its
// last command) with it, so that a restored journal reads in every language as the
// replayed one does; a Text marshals its arguments as plain JSON values.
type SnapText Text

// snapArg is one argument of a SnapText: its type and value.
type snapArg struct {
	T string          `json:"t"`
	V json.RawMessage `json:"v"`
}

type snapText struct {
	Key  string     `json:"key"`
	Args *[]snapArg `json:"args,omitempty"` // nil for a Text without arguments, empty for an empty list
}

// MarshalJSON implements json.Marshaler. An argument of a type it does not know is
// an error.
func (t SnapText) MarshalJSON() ([]byte, error) {
	out := snapText{Key: t.Key}
	if t.Args != nil {
		args := make([]snapArg, len(t.Args))
		for i, a := range t.Args {
			name, v, err := snapArgOf(a)
			if err != nil {
				return nil, fmt.Errorf("text %q: %w", t.Key, err)
			}
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("text %q: %w", t.Key, err)
			}
			args[i] = snapArg{T: name, V: raw}
		}
		out.Args = &args
	}
	return json.Marshal(out)
}

// snapArgOf names the type of an argument and gives the value to encode.
func snapArgOf(a any) (string, any, error) {
	switch v := a.(type) {
	case string:
		return "s", v, nil
	case Term:
		return "term", v, nil
	case Command:
		return "cmd", v, nil
	case Text:
		return "text", SnapText(v), nil
	case int:
		return "int", v, nil
	case int8:
		return "int8", v, nil
	case int16:
		return "int16", v, nil
	case int32:
		return "int32", v, nil
	case int64:
		return "int64", v, nil
	case uint8:
		return "uint8", v, nil
	case uint:
		return "uint", v, nil
	case bool:
		return "bool", v, nil
	case float64:
		return "float64", v, nil
	case []string:
		return "strings", v, nil
	case []Text:
		return "texts", SnapTexts(v), nil
	}
	return "", nil, fmt.Errorf("argument of type %T cannot be snapshotted", a)
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *SnapText) UnmarshalJSON(b []byte) error {
	var in snapText
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*t = SnapText{Key: in.Key}
	if in.Args == nil {
		return nil
	}
	t.Args = make([]any, len(*in.Args))
	for i, a := range *in.Args {
		v, err := decodeArg(a)
		if err != nil {
			return fmt.Errorf("text %q: %w", in.Key, err)
		}
		t.Args[i] = v
	}
	return nil
}

// decodeArg decodes one argument into its type.
func decodeArg(a snapArg) (any, error) {
	switch a.T {
	case "s":
		return decodeAs[string](a.V)
	case "term":
		return decodeAs[Term](a.V)
	case "cmd":
		return decodeAs[Command](a.V)
	case "text":
		t, err := decodeAs[SnapText](a.V)
		return Text(t), err
	case "int":
		return decodeAs[int](a.V)
	case "int8":
		return decodeAs[int8](a.V)
	case "int16":
		return decodeAs[int16](a.V)
	case "int32":
		return decodeAs[int32](a.V)
	case "int64":
		return decodeAs[int64](a.V)
	case "uint8":
		return decodeAs[uint8](a.V)
	case "uint":
		return decodeAs[uint](a.V)
	case "bool":
		return decodeAs[bool](a.V)
	case "float64":
		return decodeAs[float64](a.V)
	case "strings":
		return decodeAs[[]string](a.V)
	case "texts":
		ts, err := decodeAs[[]SnapText](a.V)
		return Texts(ts), err
	}
	return nil, fmt.Errorf("unknown argument type %q", a.T)
}

func decodeAs[T any](raw json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// SnapTexts converts texts to SnapTexts (nil stays nil).
func SnapTexts(ts []Text) []SnapText {
	if ts == nil {
		return nil
	}
	out := make([]SnapText, len(ts))
	for i, t := range ts {
		out[i] = SnapText(t)
	}
	return out
}

// Texts converts SnapTexts back (nil stays nil).
func Texts(ts []SnapText) []Text {
	if ts == nil {
		return nil
	}
	out := make([]Text, len(ts))
	for i, t := range ts {
		out[i] = Text(t)
	}
	return out
}

// SnapHappening is a Happening whose texts keep their arguments' types through JSON
// (see SnapText).
type SnapHappening struct {
	Kind    string     `json:"kind"`
	Actor   string     `json:"actor,omitempty"`
	Hit     []string   `json:"hit"`
	Text    SnapText   `json:"text"`
	Details []SnapText `json:"details"`
}

// SnapHappeningOf converts a Happening.
func SnapHappeningOf(h Happening) SnapHappening {
	return SnapHappening{Kind: h.Kind, Actor: h.Actor, Hit: h.Hit, Text: SnapText(h.Text), Details: SnapTexts(h.Details)}
}

// Happening converts a SnapHappening back.
func (h SnapHappening) Happening() Happening {
	return Happening{Kind: h.Kind, Actor: h.Actor, Hit: h.Hit, Text: Text(h.Text), Details: Texts(h.Details)}
}
