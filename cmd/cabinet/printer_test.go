package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/sas"
)

const printerHead = "[cabinet]\ncurrency = \"EUR\"\nlanguage = \"en\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\n"

// --printer on a file without the ticket's heading is refused at start,
// naming the key; with it, the printer is wired with the [sas] validation
// mode and the heading the file gives.
func TestOpenPrinter(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	bare, err := config.Parse([]byte(printerHead))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := openPrinter(bare, pr.Path, nil); err == nil || !strings.Contains(err.Error(), "printer.casino") {
		t.Errorf("--printer without a heading: %v, want a printer.casino error", err)
	}
	tito, closeP, err := openPrinter(bare, "", nil)
	if err != nil || tito != nil {
		t.Errorf("no printer: %v, %v; want none", tito, err)
	}
	closeP()
	cfg, err := config.Parse([]byte(printerHead + "[sas]\nasset = 77\nvalidation = \"secure-enhanced\"\n" +
		"[printer]\ncasino = \"Casino du Lac\"\naddress1 = \"1 quai du Lac\"\nmachine = \"A-12\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	tito, closeP, err = openPrinter(cfg, pr.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeP()
	dev, _ := tito.Printer.(tcl.Device)
	if h := dev.Heading; tito.Validation != controller.TicketValidation(sas.ValidationSecureEnhanced) || h.Asset != 77 ||
		h.Casino != "Casino du Lac" || h.Currency != "EUR" || h.Lang != "en" || h.ExpiryDays != 30 || tito.ExpiryDays != 30 {
		t.Errorf("TITO = %+v, heading %+v", tito, h)
	}
	if tito.StatusEvery != printerStatusEvery {
		t.Errorf("StatusEvery = %v, want %v", tito.StatusEvery, printerStatusEvery)
	}
}

// The shipped configuration runs without a printer, and `--printer PORT`
// alone turns one on: its [printer] heading and sas.asset are filled.
func TestShippedConfigTakesAPrinter(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	tito, closeP, err := openPrinter(cfg, "", nil)
	if err != nil || tito != nil {
		t.Fatalf("shipped, no --printer: %v, %v; want no printer", tito, err)
	}
	closeP()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"sim", "--quiet", "--config", "../../configs/cabinet.toml", "--store", filepath.Join(t.TempDir(), "s.db"),
		"--rounds", "5", "--printer", pr.Path}, &out, &errOut); err != nil {
		t.Fatalf("sim --printer on the shipped configuration: %v\n%s", err, errOut.String())
	}
}
