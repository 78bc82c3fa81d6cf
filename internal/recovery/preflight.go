package recovery

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"

	"os"
	"syscall"
)

// bbolt's on-disk layout (go.etcd.io/bbolt/internal/common, format version
// 2), read here from the file itself so that a damaged file is diagnosed
// before bbolt maps it: bbolt trusts page ids and offsets, and a wrong one
// makes it fault outside the file.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	elemSize       = 16 // branch and leaf element size
	metaSize       = 56 // bytes covered by the meta checksum (checksum follows)
	branchFlag     = 0x01
	leafFlag       = 0x02
	metaFlag       = 0x04
	freelistFlag   = 0x10
	bucketLeafFlag = 0x01
	noFreelist     = ^uint64(0)
	maxDepth       = 64
)

type boltMeta struct {
	page     int
	valid    error
	pageSize uint64
	root     uint64
	freelist uint64
	pgid     uint64 // high-water mark
	txid     uint64
}

func readMeta(data []byte, page int, off uint64) boltMeta {
	m := boltMeta{page: page}
	if off+pageHeaderSize+metaSize+8 > uint64(len(data)) {
		m.valid = fmt.Errorf("meta page %d beyond the end of the file", page)
		return m
	}
	b := data[off+pageHeaderSize:]
	le := binary.LittleEndian
	magic, version := le.Uint32(b[0:]), le.Uint32(b[4:])
	m.pageSize = uint64(le.Uint32(b[8:]))
	m.root = le.Uint64(b[16:])
	m.freelist = le.Uint64(b[32:])
	m.pgid = le.Uint64(b[40:])
	m.txid = le.Uint64(b[48:])
	h := fnv.New64a()
	h.Write(b[:metaSize])
	switch {
	case string(b[:len(discardMagic)]) == discardMagic:
		// The discarded meta's own bytes follow the mark.
		m.valid = errDiscarded
		m.pageSize = uint64(le.Uint32(b[len(discardMagic)+8:]))
		m.txid = le.Uint64(b[len(discardMagic)+48:])
		if m.pageSize < 512 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0 {
			m.valid = fmt.Errorf("meta page %d: discarded, page size %d", page, m.pageSize)
		}
	case magic != boltMagic:
		m.valid = fmt.Errorf("meta page %d: bad magic %08x", page, magic)
	case version != boltVersion:
		m.valid = fmt.Errorf("meta page %d: version %d, want %d", page, version, boltVersion)
	case le.Uint64(b[56:]) != h.Sum64():
		m.valid = fmt.Errorf("meta page %d: checksum mismatch", page)
	case m.pageSize < 512 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0:
		m.valid = fmt.Errorf("meta page %d: page size %d", page, m.pageSize)
	}
	return m
}

// preflight verifies the bbolt file structure from a plain read of the file:
// both meta pages, file size against the high-water mark, and a walk of the
// page tree and freelist of the meta bbolt will use (every page id in bounds,
// every element inside its page, no page referenced twice). fatal means bbolt
// must not open the file; problems lists every finding (non-fatal ones: a
// damaged meta page bbolt would silently skip).
func preflight(path string) (fatal bool, problems []error, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, nil, fmt.Errorf("recovery: read %s: %w", path, err)
	}
	return checkFile(data)
}

func fileProblem(format string, args ...any) error {
	return &CorruptError{Bucket: "file", Key: "bbolt", Reason: fmt.Sprintf(format, args...)}
}

func checkFile(data []byte) (fatal bool, problems []error, err error) {
	m0 := readMeta(data, 0, 0)
	ps := uint64(os.Getpagesize())
	if m0.valid == nil || m0.valid == errDiscarded {
		ps = m0.pageSize
	}
	m1 := readMeta(data, 1, ps)
	if m1.valid == nil && m0.valid != nil {
		ps = m1.pageSize
	}
	var use *boltMeta
	for _, m := range []*boltMeta{&m0, &m1} {
		if m.valid != nil {
			if m.valid != errDiscarded {
				problems = append(problems, fileProblem("%v", m.valid))
			}
			continue
		}
		if m.pageSize != ps {
			problems = append(problems, fileProblem("meta page %d: page size %d differs from %d", m.page, m.pageSize, ps))
			continue
		}
		if use == nil || m.txid > use.txid {
			use = m
		}
	}
	if use == nil {
		return true, problems, nil
	}
	if m0.valid == nil && m1.valid == nil && m0.txid == m1.txid {
		problems = append(problems, fileProblem("both meta pages carry transaction %d", m0.txid))
	}
	w := walker{data: data, ps: ps, hwm: use.pgid, seen: map[uint64]bool{0: true, 1: true}}
	if w.hwm < 3 || w.hwm*ps > uint64(len(data)) {
		problems = append(problems, fileProblem("file is %d bytes, meta page %d (transaction %d) needs %d pages of %d",
			len(data), use.page, use.txid, w.hwm, ps))
		return true, problems, nil
	}
	w.tree(use.root, 0, "root")
	if use.freelist != noFreelist {
		w.freelist(use.freelist)
	}
	problems = append(problems, w.problems...)
	return len(w.problems) > 0, problems, nil
}

type walker struct {
	data     []byte
	ps, hwm  uint64
	seen     map[uint64]bool
	problems []error
}

func (w *walker) bad(format string, args ...any) {
	if len(w.problems) < 50 {
		w.problems = append(w.problems, fileProblem(format, args...))
	}
}

// page returns the bytes of page id (with its overflow pages) if in bounds.
func (w *walker) page(id uint64, where string) ([]byte, bool) {
	if id < 2 || id >= w.hwm {
		w.bad("%s: page %d out of bounds (high-water mark %d)", where, id, w.hwm)
		return nil, false
	}
	off := id * w.ps
	hdr := w.data[off : off+pageHeaderSize]
	if got := binary.LittleEndian.Uint64(hdr); got != id {
		w.bad("%s: page %d says it is page %d", where, id, got)
		return nil, false
	}
	over := uint64(binary.LittleEndian.Uint32(hdr[12:]))
	if id+over >= w.hwm {
		w.bad("%s: page %d overflows %d pages past the high-water mark", where, id, over)
		return nil, false
	}
	for i := id; i <= id+over; i++ {
		if w.seen[i] {
			w.bad("%s: page %d referenced twice", where, i)
			return nil, false
		}
		w.seen[i] = true
	}
	return w.data[off : off+(over+1)*w.ps], true
}

// tree walks the b+tree rooted at page id (a bucket's root).
func (w *walker) tree(id uint64, depth int, where string) {
	if depth > maxDepth {
		w.bad("%s: tree deeper than %d", where, maxDepth)
		return
	}
	p, ok := w.page(id, where)
	if !ok {
		return
	}
	w.elements(p, depth, fmt.Sprintf("%s/page %d", where, id))
}

// elements checks the elements of a branch or leaf page p (a mapped page or
// an inline bucket's page) and recurses.
func (w *walker) elements(p []byte, depth int, where string) {
	if len(p) < pageHeaderSize {
		w.bad("%s: page shorter than its header", where)
		return
	}
	flags := binary.LittleEndian.Uint16(p[8:])
	count := int(binary.LittleEndian.Uint16(p[10:]))
	if uint64(pageHeaderSize+count*elemSize) > uint64(len(p)) {
		w.bad("%s: %d elements do not fit in the page", where, count)
		return
	}
	le := binary.LittleEndian
	for i := range count {
		e := pageHeaderSize + i*elemSize
		switch flags {
		case branchFlag:
			pos, ksize, child := uint64(le.Uint32(p[e:])), uint64(le.Uint32(p[e+4:])), le.Uint64(p[e+8:])
			if uint64(e)+pos+ksize > uint64(len(p)) {
				w.bad("%s: branch element %d key outside the page", where, i)
				return
			}
			w.tree(child, depth+1, where)
		case leafFlag:
			fl, pos, ksize, vsize := le.Uint32(p[e:]), uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
			start := uint64(e) + pos
			if start+ksize+vsize > uint64(len(p)) {
				w.bad("%s: leaf element %d outside the page", where, i)
				return
			}
			if fl&bucketLeafFlag == 0 {
				continue
			}
			v := p[start+ksize : start+ksize+vsize]
			name := keyString(p[start : start+ksize])
			if len(v) < 16 {
				w.bad("%s: bucket %s header truncated", where, name)
				continue
			}
			if root := le.Uint64(v); root != 0 {
				w.tree(root, depth+1, name)
			} else if depth < maxDepth {
				w.elements(v[16:], depth+1, name+" (inline)")
			}
		default:
			w.bad("%s: page type %#x where a branch or leaf was expected", where, flags)
			return
		}
	}
}

func (w *walker) freelist(id uint64) {
	p, ok := w.page(id, "freelist")
	if !ok {
		return
	}
	le := binary.LittleEndian
	if le.Uint16(p[8:])&freelistFlag == 0 {
		w.bad("freelist: page %d is not a freelist page", id)
		return
	}
	count, ids := uint64(le.Uint16(p[10:])), p[pageHeaderSize:]
	if count == 0xFFFF {
		if len(ids) < 8 {
			w.bad("freelist: truncated count")
			return
		}
		count, ids = le.Uint64(ids), ids[8:]
	}
	if count > uint64(len(ids))/8 {
		w.bad("freelist: %d ids do not fit in page %d", count, id)
		return
	}
	for i := range count {
		f := le.Uint64(ids[i*8:])
		if f < 2 || f >= w.hwm {
			w.bad("freelist: free page %d out of bounds", f)
			continue
		}
		if w.seen[f] {
			w.bad("freelist: page %d is both free and in use", f)
		}
	}
}

// probeLock reports ErrLocked if another process holds the file (so a
// damaged-file report is not given for a file a running cabinet is writing).
func probeLock(path string, exclusive bool) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("recovery: open %s: %w", path, err)
	}
	defer f.Close()
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		return lockedError(path, !exclusive)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return nil
}
