module cabinet

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/gen2brain/raylib-go/raylib v0.60.0
	github.com/google/go-cmp v0.7.0
	go.etcd.io/bbolt v1.5.0
	golang.org/x/sys v0.45.0
	periph.io/x/conn/v3 v3.7.3
	periph.io/x/host/v3 v3.8.5
	pgregory.net/rapid v1.3.0
	rsc.io/qr v0.2.0
)

require (
	github.com/ebitengine/purego v0.10.0 // indirect
	github.com/jonboulle/clockwork v0.5.0 // indirect
	github.com/jupiterrider/ffi v0.7.0 // indirect
	golang.org/x/exp v0.0.0-20240506185415-9bf2ced13842 // indirect
)
