package uia

import (
	"errors"
	"fmt"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ownIntegrity is this process's integrity level.
func ownIntegrity() (Integrity, error) {
	return tokenIntegrity(windows.GetCurrentProcessToken())
}

// processIntegrity is the integrity level of process pid and the name of
// its executable, for the error that refuses it.
func processIntegrity(pid uint32) (Integrity, string, error) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return 0, "", fmt.Errorf("OpenProcess: %w", err)
	}
	defer windows.CloseHandle(h)
	app := fmt.Sprintf("process %d", pid)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	if n := uint32(len(buf)); windows.QueryFullProcessImageName(h, 0, &buf[0], &n) == nil {
		app = filepath.Base(windows.UTF16ToString(buf[:n]))
	}
	var tok windows.Token
	if err := windows.OpenProcessToken(h, windows.TOKEN_QUERY, &tok); err != nil {
		return 0, app, fmt.Errorf("OpenProcessToken(%s): %w", app, err)
	}
	defer tok.Close()
	il, err := tokenIntegrity(tok)
	return il, app, err
}

// tokenIntegrity reads TokenIntegrityLevel: a TOKEN_MANDATORY_LABEL whose
// SID's last sub-authority is the level.
func tokenIntegrity(tok windows.Token) (Integrity, error) {
	var n uint32
	_ = windows.GetTokenInformation(tok, windows.TokenIntegrityLevel, nil, 0, &n) // asks the size
	if n == 0 {
		return 0, errors.New("GetTokenInformation(TokenIntegrityLevel) gave no size")
	}
	buf := make([]byte, n)
	if err := windows.GetTokenInformation(tok, windows.TokenIntegrityLevel, &buf[0], n, &n); err != nil {
		return 0, fmt.Errorf("GetTokenInformation(TokenIntegrityLevel): %w", err)
	}
	sid := (*windows.Tokenmandatorylabel)(unsafe.Pointer(&buf[0])).Label.Sid
	count := sid.SubAuthorityCount()
	if count == 0 {
		return 0, errors.New("integrity SID without sub-authority")
	}
	return Integrity(sid.SubAuthority(uint32(count) - 1)), nil
}

// CheckInputTo returns an error naming the app when process pid runs at a
// higher integrity level than this one, so that input sent to its windows
// would be dropped by Windows (UIPI). When a level cannot be read it
// returns nil: the caller's read-back catches input that went nowhere.
func CheckInputTo(pid uint32) error {
	ours, err := ownIntegrity()
	if err != nil {
		return nil
	}
	theirs, app, err := processIntegrity(pid)
	if err != nil {
		return nil
	}
	return RefuseHigher(ours, theirs, app)
}
