package duel

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Version is the encoding version of Round (Round.V).
//
// Versions:
//   - 0: records written before Round.V existed. Their shape is version 1's
//     without the "v" field; Decode reads them as version 1.
//   - 1: testdata/round-v1.json. Its shape is version 2's without the
//     session's "ai_rev": the computer played at revision 0 (Session.AIRev),
//     which is what a missing field decodes to, so its deals replay as played.
//   - 2: the current encoding, the session's "ai_rev" added
//     (testdata/round-v2.json, pinned by TestGoldenEncoding).
const Version = 2

// Decode reads a stored round: strictly (an unknown field is refused), by
// version (an older record is upgraded to the current one in memory; the
// next stored step carries "v": 2), and checked (Check). Any failure wraps
// ErrCorrupt and names what was wrong.
func Decode(b []byte) (*Round, error) {
	var head struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("duel: decode round: %w: %w", ErrCorrupt, err)
	}
	switch head.V {
	case 0, 1, Version: // versions 0 and 1 are version 2 without ai_rev (revision 0)
	default:
		return nil, fmt.Errorf("duel: decode round: encoding version %d, want at most %d: %w", head.V, Version, ErrCorrupt)
	}
	r := new(Round)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("duel: decode round: %w: %w", ErrCorrupt, err)
	}
	r.V = Version
	if err := r.Check(); err != nil {
		return nil, fmt.Errorf("duel: decode round: %w", err)
	}
	return r, nil
}
