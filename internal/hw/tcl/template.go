package tcl

import (
	"strconv"
	"strings"
)

// The regions of the ticket template, in the order of the print command's
// data fields.
const (
	RegionCasino = iota
	RegionAddress1
	RegionAddress2
	RegionTitle
	RegionValidation
	RegionDate
	RegionTime
	RegionNumber
	RegionFigures
	RegionWords
	RegionMachine
	RegionAsset
	RegionExpiry
	RegionBarcode
	regionCount
)

// Region is one print region of the ticket template, defined in the
// printer's RAM with
//
//	^R|id|R|da|pa|da_len|pa_len||rot|just|obj|m1|m2|obj_att|0||^
//
// da runs across the print head and pa along the paper, in dots (8 per mm
// on these 203 dpi printers); rot is the print direction (0 right, 1 down,
// 2 left, 3 up); just the justification (0 left, 1 centre, 2 right); obj
// the resident font number, or "l" for an interleaved 2 of 5 barcode with
// m1/m2 its narrow-bar width and wide/narrow ratio and obj_att its height
// in dots. Print attribute 0 means the data comes with each print command.
type Region struct {
	ID                   byte
	Name                 string
	DA, PA, DALen, PALen int
	Rot, Just            int
	Obj                  string // font number, or BarcodeI2of5
	M1, M2, Attr         int
}

// BarcodeI2of5 is the region object id of an interleaved 2 of 5 barcode.
const BarcodeI2of5 = "l"

// TemplateID is the id of the ticket template in printer RAM.
const TemplateID = 'T'

// Template size: da across the 512-dot head, pa along a 156 mm ticket.
const templateDA, templatePA = 512, 1240

// Layout is the landscape cash-out ticket: text runs down the paper
// (rot 1), one line per region, the barcode across the middle. The
// positions and fonts are a starting layout for a GEN2-class 203 dpi
// printer: check them on each model with a test ticket before use
// (docs/tito.md); the data fields do not depend on them.
var Layout = [regionCount]Region{
	RegionCasino:     {ID: '0', Name: "casino", DA: 470, PA: 40, DALen: 36, PALen: 1160, Rot: 1, Just: 1, Obj: "3", M1: 1, M2: 1},
	RegionAddress1:   {ID: '1', Name: "address 1", DA: 440, PA: 40, DALen: 26, PALen: 1160, Rot: 1, Just: 1, Obj: "2", M1: 1, M2: 1},
	RegionAddress2:   {ID: '2', Name: "address 2", DA: 414, PA: 40, DALen: 26, PALen: 1160, Rot: 1, Just: 1, Obj: "2", M1: 1, M2: 1},
	RegionTitle:      {ID: '3', Name: "title", DA: 380, PA: 40, DALen: 32, PALen: 1160, Rot: 1, Just: 1, Obj: "3", M1: 1, M2: 1},
	RegionValidation: {ID: '4', Name: "validation", DA: 346, PA: 40, DALen: 30, PALen: 1160, Rot: 1, Just: 1, Obj: "3", M1: 1, M2: 1},
	RegionBarcode:    {ID: 'D', Name: "barcode", DA: 230, PA: 120, DALen: 110, PALen: 1000, Rot: 1, Just: 1, Obj: BarcodeI2of5, M1: 3, M2: 3, Attr: 100},
	RegionDate:       {ID: '5', Name: "date", DA: 196, PA: 40, DALen: 26, PALen: 560, Rot: 1, Just: 0, Obj: "2", M1: 1, M2: 1},
	RegionTime:       {ID: '6', Name: "time", DA: 196, PA: 640, DALen: 26, PALen: 560, Rot: 1, Just: 2, Obj: "2", M1: 1, M2: 1},
	RegionNumber:     {ID: '7', Name: "ticket number", DA: 168, PA: 40, DALen: 26, PALen: 560, Rot: 1, Just: 0, Obj: "2", M1: 1, M2: 1},
	RegionFigures:    {ID: '8', Name: "amount", DA: 120, PA: 40, DALen: 44, PALen: 1160, Rot: 1, Just: 1, Obj: "4", M1: 1, M2: 1},
	RegionWords:      {ID: '9', Name: "amount in words", DA: 70, PA: 40, DALen: 44, PALen: 1160, Rot: 1, Just: 1, Obj: "1", M1: 1, M2: 1},
	RegionMachine:    {ID: 'A', Name: "machine", DA: 40, PA: 40, DALen: 26, PALen: 560, Rot: 1, Just: 0, Obj: "2", M1: 1, M2: 1},
	RegionAsset:      {ID: 'B', Name: "asset", DA: 40, PA: 640, DALen: 26, PALen: 560, Rot: 1, Just: 2, Obj: "2", M1: 1, M2: 1},
	RegionExpiry:     {ID: 'C', Name: "expiry", DA: 168, PA: 640, DALen: 26, PALen: 560, Rot: 1, Just: 2, Obj: "2", M1: 1, M2: 1},
}

// regionCommand is the ^R command defining r in RAM.
func regionCommand(r Region) []byte {
	f := []string{"R", string(r.ID), "R",
		strconv.Itoa(r.DA), strconv.Itoa(r.PA), strconv.Itoa(r.DALen), strconv.Itoa(r.PALen), "",
		strconv.Itoa(r.Rot), strconv.Itoa(r.Just), r.Obj,
		strconv.Itoa(r.M1), strconv.Itoa(r.M2), strconv.Itoa(r.Attr), "0", ""}
	return command(f)
}

// templateCommand is ^T|id|R|da|pa|r1|…|rn|^ for the Layout.
func templateCommand() []byte {
	f := []string{"T", string(rune(TemplateID)), "R", strconv.Itoa(templateDA), strconv.Itoa(templatePA)}
	for _, r := range Layout {
		f = append(f, string(r.ID))
	}
	return command(f)
}

// printCommand is ^P|id|1|d1|…|dn|^: one copy of the template with the
// fields' data, escaped.
func printCommand(fields []string) []byte {
	f := []string{"P", string(rune(TemplateID)), "1"}
	for _, d := range fields {
		f = append(f, Escape(d))
	}
	return command(f)
}

// command frames fields as ^f1|f2|…|fn|^.
func command(fields []string) []byte {
	return []byte("^" + strings.Join(fields, "|") + "|^")
}

// Commands the printer takes in template mode.
var (
	enq          = []byte{0x05}                      // status request, answered at once
	templateMode = []byte{0x1B, '[', '^', ']', 0x1B} // leave line (journal) mode
	clearErrors  = []byte("^C|^")
	deleteRegion = []byte("^R|$|DR|^") // delete every RAM region
)

// Escape writes the three bytes TCL reserves inside print data as a tilde
// and their decimal code: '~' → "~126", '^' → "~094", '|' → "~124".
func Escape(s string) string {
	if !strings.ContainsAny(s, "~^|") {
		return s
	}
	r := strings.NewReplacer("~", "~126", "^", "~094", "|", "~124")
	return r.Replace(s)
}
