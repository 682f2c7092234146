package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DecodeStrict decodes the JSON document data into v, refusing unknown fields and
// anything after the document: the decoding of a snapshot, whose every field is known.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the snapshot")
	}
	return nil
}
