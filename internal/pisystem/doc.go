// Package pisystem drives the cabinet's Raspberry Pi image booted whole in
// an emulated arm64 machine (scripts/test-pi-system, docs/pi.md): the image
// of scripts/pi-image on an SD card that survives power cuts (a qcow2
// overlay), qemu-system-aarch64 -M virt -cpu cortex-a72 with Debian's arm64
// kernel and initrd, virtio-gpu for DRM/KMS (Mesa in software), the PL011
// (ttyAMA0, the shipped SAS port) on the SAS host's pty, QEMU's USB serial
// adapters on the note validator's and the printer's emulators, a virtual
// keyboard for the buttons (QMP send-key), QMP screendump for pictures and
// a virtio console for the test's own shell (the image's test hook, inert
// outside the test).
//
// The test (TestPiSystem) runs only when CABINET_PI_IMAGE names the
// directory scripts/pi-image wrote.
package pisystem
