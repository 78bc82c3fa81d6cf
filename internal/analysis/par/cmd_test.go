package par

import (
	"context"
	"os"
	"testing"
)

func TestParCommandAll(t *testing.T) {
	if os.Getenv("PAR_PRINT") == "" {
		t.Skip("set PAR_PRINT=1 to print `cabinet par --game all`")
	}
	if err := Command(context.Background(), []string{"--game", "all"}, os.Stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
}
