package uia

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// wineIDL is where Debian's libwine-dev puts Wine's copy of the UIA client
// IDL; REPRISE_UIA_IDL names another.
const wineIDL = "/usr/include/wine/wine/windows/uiautomationclient.idl"

// idlLayout is what an IDL says of its interfaces and classes: each
// method's vtable slot ("IUIAutomation.ElementFromPoint",
// "IUIAutomationElement.get_CurrentName") and each uuid by name.
type idlLayout struct {
	slots map[string]int
	uuids map[string]string
}

var (
	idlComments  = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	idlInterface = regexp.MustCompile(`(?s)\[([^\[\]]*)\]\s*(interface|coclass)\s+(\w+)\s*(?::\s*(\w+))?\s*\{(.*?)\n\s*\}`)
	idlUUID      = regexp.MustCompile(`uuid\(([0-9a-fA-F-]+)\)`)
	idlConst     = regexp.MustCompile(`const\s+long\s+(UIA_\w+)\s*=\s*(\d+)\s*;`)
	idlMethod    = regexp.MustCompile(`(?:\[([^\]]*)\]\s*)?HRESULT\s+(\w+)\s*\(`)
)

// parseIDL reads interface bodies in order: an interface's first method
// follows its base's last (IUnknown has three).
func parseIDL(src string) idlLayout {
	src = idlComments.ReplaceAllString(src, "")
	l := idlLayout{slots: map[string]int{}, uuids: map[string]string{}}
	counts := map[string]int{"IUnknown": 3}
	for _, m := range idlInterface.FindAllStringSubmatch(src, -1) {
		attrs, kind, name, base, body := m[1], m[2], m[3], m[4], m[5]
		if u := idlUUID.FindStringSubmatch(attrs); u != nil {
			l.uuids[name] = strings.ToLower(u[1])
		}
		if kind != "interface" {
			continue
		}
		n, ok := counts[base]
		if !ok {
			continue // a base from another IDL; none of ours
		}
		for _, mm := range idlMethod.FindAllStringSubmatch(body, -1) {
			method := mm[2]
			switch {
			case strings.Contains(mm[1], "propget"):
				method = "get_" + method
			case strings.Contains(mm[1], "propput"):
				method = "put_" + method
			}
			l.slots[name+"."+method] = n
			n++
		}
		counts[name] = n
	}
	return l
}

// core are the interfaces every IDL this test reads must define.
var core = map[string]bool{
	"IUIAutomation": true, "IUIAutomation2": true, "IUIAutomationTreeWalker": true, "IUIAutomationElement": true,
	"IUIAutomationValuePattern": true, "CUIAutomation": true, "CUIAutomation8": true,
}

// TestVtableAgainstWineIDL checks every vtable slot and GUID the Windows
// code uses against Wine's UIAutomationClient.idl, so that a miscounted
// slot shows up on Linux rather than as a crash on a Windows desktop.
func TestVtableAgainstWineIDL(t *testing.T) {
	path := os.Getenv("REPRISE_UIA_IDL")
	if path == "" {
		path = wineIDL
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("SKIPPED: the vtable slots are checked against Wine's IDL, which is not here (%v): apt-get install libwine-dev", err)
	}
	l := parseIDL(string(src))
	for key, want := range map[string]int{
		"IUIAutomation.CompareElements":                     mCompareElements,
		"IUIAutomation.GetRootElement":                      mGetRootElement,
		"IUIAutomation.ElementFromHandle":                   mElementFromHandle,
		"IUIAutomation.ElementFromPoint":                    mElementFromPoint,
		"IUIAutomation.get_ControlViewWalker":               mGetControlViewWalker,
		"IUIAutomation2.put_ConnectionTimeout":              mPutConnectionTimeout,
		"IUIAutomation2.put_TransactionTimeout":             mPutTransactionTimeout,
		"IUIAutomation.CreateCacheRequest":                  mCreateCacheRequest,
		"IUIAutomationCacheRequest.AddProperty":             mAddProperty,
		"IUIAutomationCacheRequest.put_TreeScope":           mPutTreeScope,
		"IUIAutomationElementArray.GetElement":              mGetElement,
		"IUIAutomationElement.BuildUpdatedCache":            mBuildUpdatedCache,
		"IUIAutomationElement.GetCurrentPropertyValue":      mGetCurrentPropertyValue,
		"IUIAutomationElement.GetCachedPropertyValue":       mGetCachedPropertyValue,
		"IUIAutomationElement.GetCachedChildren":            mGetCachedChildren,
		"IUIAutomationElement.get_CachedProcessId":          mGetCachedProcessID,
		"IUIAutomationElement.get_CachedControlType":        mGetCachedControlType,
		"IUIAutomationElement.get_CachedName":               mGetCachedName,
		"IUIAutomationElement.get_CachedAutomationId":       mGetCachedAutomationID,
		"IUIAutomationElement.get_CachedClassName":          mGetCachedClassName,
		"IUIAutomationElement.get_CachedIsPassword":         mGetCachedIsPassword,
		"IUIAutomationElement.get_CachedIsOffscreen":        mGetCachedIsOffscreen,
		"IUIAutomationElement.get_CachedBoundingRectangle":  mGetCachedBoundingRect,
		"IUIAutomationElement.get_CachedLabeledBy":          mGetCachedLabeledBy,
		"IUIAutomationTreeWalker.GetParentElement":          mGetParentElement,
		"IUIAutomationTreeWalker.GetFirstChildElement":      mGetFirstChildElement,
		"IUIAutomationTreeWalker.GetNextSiblingElement":     mGetNextSiblingElement,
		"IUIAutomationElement.SetFocus":                     mSetFocus,
		"IUIAutomationElement.GetCurrentPattern":            mGetCurrentPattern,
		"IUIAutomationElement.get_CurrentProcessId":         mGetCurrentProcessID,
		"IUIAutomationElement.get_CurrentControlType":       mGetCurrentControlType,
		"IUIAutomationElement.get_CurrentName":              mGetCurrentName,
		"IUIAutomationElement.get_CurrentAutomationId":      mGetCurrentAutomationID,
		"IUIAutomationElement.get_CurrentClassName":         mGetCurrentClassName,
		"IUIAutomationElement.get_CurrentIsPassword":        mGetCurrentIsPassword,
		"IUIAutomationElement.get_CurrentIsOffscreen":       mGetCurrentIsOffscreen,
		"IUIAutomationElement.get_CurrentBoundingRectangle": mGetCurrentBoundingRect,
		"IUIAutomationElement.get_CurrentLabeledBy":         mGetCurrentLabeledBy,
		"IUIAutomationInvokePattern.Invoke":                 mInvoke,
		"IUIAutomationValuePattern.SetValue":                mSetValue,
		"IUIAutomationValuePattern.get_CurrentValue":        mGetCurrentValue,
		"IUIAutomationValuePattern.get_CurrentIsReadOnly":   mGetCurrentValueIsReadOnly,
		"IUIAutomationExpandCollapsePattern.Expand":         mExpand,
		"IUIAutomationExpandCollapsePattern.Collapse":       mCollapse,
		"IUIAutomationSelectionItemPattern.Select":          mSelect,
		"IUIAutomationTogglePattern.Toggle":                 mToggle,
		"IUIAutomationTogglePattern.get_CurrentToggleState": mGetCurrentToggleState,
		// Checks of the parser, whose counts mingw's offsetof gave for
		// Wine 8's generated uiautomationclient.h.
		"IUIAutomationElementArray.get_Length":                       mGetLength,
		"IUIAutomationElement9.get_CachedIsDialog":                   118,
		"IUIAutomation6.RemoveActiveTextPositionChangedEventHandler": 78,
	} {
		iface, _, _ := strings.Cut(key, ".")
		if _, ok := l.uuids[iface]; !ok && !core[iface] {
			// Wine 8's IDL only declares the pattern interfaces; their
			// slots (Invoke 3; Expand 3, Collapse 4; Select 3; Toggle 3,
			// get_CurrentToggleState 4) come from later Wine IDLs and
			// the win32metadata projections.
			t.Logf("%s is not defined in %s; %s not checked", iface, path, key)
			continue
		}
		if got, ok := l.slots[key]; !ok || got != want {
			t.Errorf("%s puts %s at slot %d (found %v); the code calls slot %d", path, key, got, ok, want)
		}
	}
	consts := map[string]string{}
	for _, m := range idlConst.FindAllStringSubmatch(string(src), -1) {
		consts[m[1]] = m[2]
	}
	for name, want := range map[string]int{
		"UIA_BoundingRectanglePropertyId": propBoundingRectangle, "UIA_ProcessIdPropertyId": propProcessID,
		"UIA_ControlTypePropertyId": propControlType, "UIA_NamePropertyId": propName,
		"UIA_AutomationIdPropertyId": propAutomationID, "UIA_ClassNamePropertyId": propClassName,
		"UIA_LabeledByPropertyId": propLabeledBy, "UIA_IsPasswordPropertyId": propIsPassword,
		"UIA_IsOffscreenPropertyId": propIsOffscreen, "UIA_IsValuePatternAvailablePropertyId": propIsValuePatternAvailable,
		"UIA_ValueValuePropertyId": propValueValue,
	} {
		if got := consts[name]; got != strconv.Itoa(want) {
			t.Errorf("%s gives %s = %q; the code uses %d", path, name, got, want)
		}
	}
	for name, g := range map[string]guid{
		"CUIAutomation": clsidCUIAutomation, "CUIAutomation8": clsidCUIAutomation8,
		"IUIAutomation": iidIUIAutomation, "IUIAutomation2": iidIUIAutomation2,
		"IUIAutomationInvokePattern": iidInvokePattern, "IUIAutomationValuePattern": iidValuePattern,
		"IUIAutomationExpandCollapsePattern": iidExpandCollapsePattern,
		"IUIAutomationSelectionItemPattern":  iidSelectionItemPattern, "IUIAutomationTogglePattern": iidTogglePattern,
	} {
		got, ok := l.uuids[name]
		if !ok && !core[name] {
			t.Logf("%s is not defined in %s; its uuid not checked", name, path)
			continue
		}
		if got != g.String() {
			t.Errorf("%s gives %s the uuid %q; the code uses %q", path, name, got, g)
		}
	}
}
