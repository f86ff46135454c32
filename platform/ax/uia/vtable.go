package uia

import "fmt"

// The COM layout of the UIA interfaces this package calls, kept portable so
// that a Linux test checks it against Wine's UIAutomationClient.idl
// (vtable_test.go). The values come from that IDL, which matches the
// Windows SDK's UIAutomationClient.h; the counts were also checked against
// the win32metadata projections (which put IUIAutomation2's first method
// at slot 58 and IUIAutomationElement's get_CurrentName at 23).

// guid is a COM GUID, laid out as Windows lays it out (windows.GUID).
type guid struct {
	Data1 uint32
	Data2 uint16
	Data3 uint16
	Data4 [8]byte
}

func (g guid) String() string {
	return fmt.Sprintf("%08x-%04x-%04x-%x-%x", g.Data1, g.Data2, g.Data3, g.Data4[:2], g.Data4[2:])
}

// Class and interface ids.
var (
	clsidCUIAutomation  = guid{0xff48dba4, 0x60ef, 0x4201, [8]byte{0xaa, 0x87, 0x54, 0x10, 0x3e, 0xef, 0x59, 0x4e}}
	clsidCUIAutomation8 = guid{0xe22ad333, 0xb25f, 0x460c, [8]byte{0x83, 0xd0, 0x05, 0x81, 0x10, 0x73, 0x95, 0xc9}}
	iidIUIAutomation    = guid{0x30cbe57d, 0xd9d0, 0x452a, [8]byte{0xab, 0x13, 0x7a, 0xc5, 0xac, 0x48, 0x25, 0xee}}
	iidIUIAutomation2   = guid{0x34723aff, 0x0c9d, 0x49d0, [8]byte{0x98, 0x96, 0x7a, 0xb5, 0x2d, 0xf8, 0xcd, 0x8a}}

	iidInvokePattern         = guid{0xfb377fbe, 0x8ea6, 0x46d5, [8]byte{0x9c, 0x73, 0x64, 0x99, 0x64, 0x2d, 0x30, 0x59}}
	iidValuePattern          = guid{0xa94cd8b1, 0x0844, 0x4cd6, [8]byte{0x9d, 0x2d, 0x64, 0x05, 0x37, 0xab, 0x39, 0xe9}}
	iidExpandCollapsePattern = guid{0x619be086, 0x1f4e, 0x4ee4, [8]byte{0xba, 0xfa, 0x21, 0x01, 0x28, 0x73, 0x87, 0x30}}
	iidSelectionItemPattern  = guid{0xa8efa66a, 0x0fda, 0x421a, [8]byte{0x91, 0x94, 0x38, 0x02, 0x1f, 0x35, 0x78, 0xea}}
	iidTogglePattern         = guid{0x94cf8058, 0x9b8d, 0x4ab9, [8]byte{0x8b, 0xfd, 0x4c, 0xd0, 0xa3, 0x3c, 0x8c, 0x70}}
)

// Vtable slots: IUnknown's three (QueryInterface, AddRef, Release, in
// com_windows.go), then each interface's methods in IDL order.
const (
	// IUIAutomation
	mCompareElements      = 3
	mGetRootElement       = 5
	mElementFromHandle    = 6
	mElementFromPoint     = 7
	mGetControlViewWalker = 14
	mCreateCacheRequest   = 20
	// IUIAutomation2 (CUIAutomation8)
	mPutConnectionTimeout  = 61
	mPutTransactionTimeout = 63

	// IUIAutomationCacheRequest
	mAddProperty  = 3
	mPutTreeScope = 7

	// IUIAutomationElementArray
	mGetLength  = 3
	mGetElement = 4

	// IUIAutomationTreeWalker
	mGetParentElement      = 3
	mGetFirstChildElement  = 4
	mGetNextSiblingElement = 6

	// IUIAutomationElement
	mSetFocus                = 3
	mBuildUpdatedCache       = 9
	mGetCurrentPropertyValue = 10
	mGetCachedPropertyValue  = 12
	mGetCachedChildren       = 19
	mGetCurrentPattern       = 16
	mGetCurrentProcessID     = 20
	mGetCurrentControlType   = 21
	mGetCurrentName          = 23
	mGetCurrentAutomationID  = 29
	mGetCurrentClassName     = 30
	mGetCurrentIsPassword    = 35
	mGetCurrentIsOffscreen   = 38
	mGetCurrentBoundingRect  = 43
	mGetCurrentLabeledBy     = 44
	mGetCachedProcessID      = 52
	mGetCachedControlType    = 53
	mGetCachedName           = 55
	mGetCachedAutomationID   = 61
	mGetCachedClassName      = 62
	mGetCachedIsPassword     = 67
	mGetCachedIsOffscreen    = 70
	mGetCachedBoundingRect   = 75
	mGetCachedLabeledBy      = 76

	// IUIAutomationInvokePattern
	mInvoke = 3
	// IUIAutomationValuePattern
	mSetValue                  = 3
	mGetCurrentValue           = 4
	mGetCurrentValueIsReadOnly = 5
	// IUIAutomationExpandCollapsePattern
	mExpand   = 3
	mCollapse = 4
	// IUIAutomationSelectionItemPattern
	mSelect = 3
	// IUIAutomationTogglePattern
	mToggle                = 3
	mGetCurrentToggleState = 4
)

// Property ids (UIA_PropertyIds) a listing caches or reads, and the tree
// scope it caches.
const (
	propBoundingRectangle       = 30001
	propProcessID               = 30002
	propControlType             = 30003
	propName                    = 30005
	propAutomationID            = 30011
	propClassName               = 30012
	propLabeledBy               = 30018
	propIsPassword              = 30019
	propIsOffscreen             = 30022
	propIsValuePatternAvailable = 30043
	propValueValue              = 30045
)
