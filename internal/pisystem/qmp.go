package pisystem

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"time"
)

// qmp is a client of QEMU's machine protocol on a unix socket: one command
// at a time, asynchronous events skipped.
type qmp struct {
	mu   sync.Mutex
	conn net.Conn
	rd   *bufio.Reader
}

// dialQMP connects to QEMU's QMP socket (retrying while QEMU starts) and
// leaves capabilities negotiation done.
func dialQMP(path string, wait time.Duration) (*qmp, error) {
	deadline := time.Now().Add(wait)
	var conn net.Conn
	var err error
	for {
		conn, err = net.Dial("unix", path)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("pisystem: QMP %s: %w", path, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	q := &qmp{conn: conn, rd: bufio.NewReader(conn)}
	var greeting struct {
		QMP json.RawMessage `json:"QMP"`
	}
	line, err := q.rd.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &greeting) != nil || greeting.QMP == nil {
		conn.Close()
		return nil, fmt.Errorf("pisystem: QMP %s: no greeting (%q, %v)", path, line, err)
	}
	if _, err := q.do("qmp_capabilities", nil); err != nil {
		conn.Close()
		return nil, err
	}
	return q, nil
}

// do runs one command and returns its "return" value.
func (q *qmp) do(cmd string, args any) (json.RawMessage, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	req := map[string]any{"execute": cmd}
	if args != nil {
		req["arguments"] = args
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	q.conn.SetDeadline(time.Now().Add(60 * time.Second))
	defer q.conn.SetDeadline(time.Time{})
	if _, err := q.conn.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("pisystem: QMP %s: %w", cmd, err)
	}
	for {
		line, err := q.rd.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("pisystem: QMP %s: %w", cmd, err)
		}
		var resp struct {
			Return json.RawMessage `json:"return"`
			Error  *struct {
				Class string `json:"class"`
				Desc  string `json:"desc"`
			} `json:"error"`
			Event string `json:"event"`
		}
		if err := json.Unmarshal(line, &resp); err != nil {
			return nil, fmt.Errorf("pisystem: QMP %s: reply %q: %w", cmd, line, err)
		}
		switch {
		case resp.Event != "":
			continue
		case resp.Error != nil:
			return nil, fmt.Errorf("pisystem: QMP %s: %s: %s", cmd, resp.Error.Class, resp.Error.Desc)
		}
		return resp.Return, nil
	}
}

func (q *qmp) close() error { return q.conn.Close() }
