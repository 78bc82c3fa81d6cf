// Package auditcmd implements `cabinet audit`: the technician's read-only view
// of a store file (meters, game recall, event log, integrity check) as text,
// JSON or CSV, usable while the cabinet is off.
package auditcmd
