package display

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Offscreen renders snapshots to images in a hidden window. It owns one OS
// thread (raylib's OpenGL context lives there), so its methods may be called
// from any goroutine. raylib keeps one window per process: do not use an
// Offscreen while Run is running, nor two Offscreens at once.
type Offscreen struct {
	req  chan func()
	done chan struct{}

	mu     sync.Mutex
	closed bool

	// set on the render thread only
	fonts  *fonts
	target rl.RenderTexture2D
	// seen, if set, hears every string drawn (tests).
	seen func(string)
	// cache is the still layer, as Run keeps it (layered renders).
	cache layerCache
}

// NewOffscreen opens the hidden window and loads the fonts.
func NewOffscreen() (*Offscreen, error) {
	if err := checkDisplay(); err != nil {
		return nil, err
	}
	o := &Offscreen{req: make(chan func()), done: make(chan struct{})}
	ready := make(chan error, 1)
	go o.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return o, nil
}

func (o *Offscreen) loop(ready chan<- error) {
	// The thread is never unlocked: it ends with the goroutine, and the GL
	// context with it.
	runtime.LockOSThread()
	defer close(o.done)
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.SetConfigFlags(rl.FlagWindowHidden)
	rl.InitWindow(ScreenW, ScreenH, "cabinet offscreen")
	if !rl.IsWindowReady() {
		ready <- fmt.Errorf("display: offscreen: %w", ErrWindow)
		return
	}
	defer rl.CloseWindow()
	f, err := loadFonts()
	if err != nil {
		ready <- err
		return
	}
	defer f.unload()
	o.fonts = f
	o.target = rl.LoadRenderTexture(ScreenW, ScreenH)
	defer rl.UnloadRenderTexture(o.target)
	defer o.cache.unload()
	rl.SetTextureFilter(o.target.Texture, rl.FilterBilinear)
	ready <- nil
	for fn := range o.req {
		fn()
	}
}

// do runs fn on the render thread and waits for it.
func (o *Offscreen) do(fn func()) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	finished := make(chan struct{})
	o.req <- func() { fn(); close(finished) }
	<-finished
	return nil
}

// drawTarget draws one frame of s at animation time t into the render target.
func (o *Offscreen) drawTarget(s *view.Snapshot, t float64, legend bool, miss func(string)) {
	rl.BeginTextureMode(o.target)
	fr := newFrame(o.fonts, s, t, legend)
	fr.miss, fr.seen = miss, o.seen
	fr.draw()
	rl.EndTextureMode()
}

// inkOf renders s as image does and returns where its text went (ink.go).
func (o *Offscreen) inkOf(s *view.Snapshot, legend bool) (*inkLog, error) {
	l := newInkLog()
	err := o.do(func() {
		rl.BeginTextureMode(o.target)
		fr := newFrame(o.fonts, s, 0, legend)
		fr.ink = l
		fr.draw()
		rl.EndTextureMode()
	})
	return l, err
}

// Image renders s (animations frozen at time t seconds) and returns the pixels.
func (o *Offscreen) Image(s *view.Snapshot, t float64) (*image.RGBA, error) {
	return o.image(s, t, false, nil)
}

func (o *Offscreen) image(s *view.Snapshot, t float64, legend bool, miss func(string)) (*image.RGBA, error) {
	return o.pixels(func() { o.drawTarget(s, t, legend, miss) })
}

// pacedImage renders the paced frame pf (a card in flight at its point)
// as Run draws it, still layer and moving layer.
func (o *Offscreen) pacedImage(pf paced, t float64) (*image.RGBA, error) {
	return o.pixels(func() {
		fr := newFrame(o.fonts, pf.s, t, false)
		fr.fly, fr.flyF = pf.flying, pf.f
		fr.chips, fr.chipF = pf.chips, pf.cf
		c := layerCache{dest: int64(o.target.ID)}
		defer c.unload()
		c.prepare(fr)
		rl.BeginTextureMode(o.target)
		c.draw(fr)
		rl.EndTextureMode()
	})
}

// layeredImage renders s as Run draws it: the still layer from the cache
// and the moving layer over it.
func (o *Offscreen) layeredImage(s *view.Snapshot, t float64) (*image.RGBA, error) {
	return o.pixels(func() {
		fr := newFrame(o.fonts, s, t, false)
		o.cache.prepare(fr)
		rl.BeginTextureMode(o.target)
		o.cache.dest = int64(o.target.ID)
		o.cache.draw(fr)
		rl.EndTextureMode()
	})
}

// pixels runs draw (into o.target) on the render thread and reads the target back.
func (o *Offscreen) pixels(draw func()) (*image.RGBA, error) {
	var out *image.RGBA
	err := o.do(func() {
		draw()
		img := rl.LoadImageFromTexture(o.target.Texture)
		defer rl.UnloadImage(img)
		rl.ImageFlipVertical(img) // OpenGL textures are stored bottom-up
		rl.ImageFormat(img, rl.UncompressedR8g8b8a8)
		out = image.NewRGBA(image.Rect(0, 0, int(img.Width), int(img.Height)))
		copy(out.Pix, unsafe.Slice((*byte)(img.Data), len(out.Pix)))
		for i := 3; i < len(out.Pix); i += 4 {
			out.Pix[i] = 255 // the frame is opaque
		}
	})
	return out, err
}

// Render renders s to a PNG file at path.
func (o *Offscreen) Render(s *view.Snapshot, path string) error {
	img, err := o.Image(s, 0)
	if err != nil {
		return err
	}
	return writePNG(img, path)
}

func writePNG(img image.Image, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("display: screenshot %s: %w: %w", path, ErrExport, err)
	}
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("display: screenshot %s: %w: %w", path, ErrExport, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("display: screenshot %s: %w: %w", path, ErrExport, err)
	}
	return nil
}

// Close closes the hidden window and ends the render thread.
func (o *Offscreen) Close() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return nil
	}
	o.closed = true
	close(o.req)
	o.mu.Unlock()
	<-o.done
	return nil
}

// Screenshot renders one frame of snap to a PNG file at path, in a hidden
// window (works under Xvfb; on a Pi build with -tags drm it uses the DRM
// display). It must not be called while Run is running.
func Screenshot(snap *view.Snapshot, path string) error {
	o, err := NewOffscreen()
	if err != nil {
		return err
	}
	defer o.Close()
	return o.Render(snap, path)
}
