/*
 * fakeuia.dll: a small UI Automation server in C for the Windows-side test
 * TestWineFake, which Wine 8 needs because it has no UIA client of its own.
 * It lays out IUIAutomation, IUIAutomationTreeWalker, IUIAutomationElement
 * and the Value, Invoke and Toggle patterns at the vtable slots the Go code
 * calls (platform/ax/uia/vtable.go, checked against Wine's IDL), so the test
 * exercises the real calling convention (POINT by value, BSTRs from
 * oleaut32, [out] pointers) and counts every reference the client takes.
 *
 * FakeUIA_Proxy adds a real top-level window to the fake desktop: its
 * elements are its windows, described as UIA's Win32 proxies describe them
 * (a group box is a Group, an edit is named by and LabeledBy the static
 * text before it, a control's AutomationId is its control id), so that the
 * selector conformance suite runs the client's List over a real Win32 form.
 * List reads through a cache request (BuildUpdatedCache, GetCachedChildren,
 * get_Cached*): the fake's cached values are its current ones.
 *
 * Built by the Linux-side test: x86_64-w64-mingw32-gcc -shared -o
 * fakeuia.dll fakeuia.c -loleaut32
 */
#include <windows.h>
#include <oleauto.h>

#define SLOTS 128
typedef void *slot;

static LONG refs;                  /* references held by the client */
static LONG invokes, toggles, focuses;
static DWORD conn_timeout, trans_timeout;
static DWORD delay;                /* ms each get_CurrentName takes: a slow app */
static LONG secret_reads;          /* values of password fields asked for */

typedef struct elem {
    slot *vtbl;
    int ct;                        /* control type id */
    const WCHAR *name, *aid, *cls;
    BOOL password, offscreen;
    RECT rc;
    struct elem *parent, *first, *next, *labeled_by;
    int pattern;                   /* 0, or the one pattern id it has */
    struct pat { slot *vtbl; struct elem *e; } pat;
    WCHAR value[256];
    int toggle;
    HWND hwnd;                     /* a proxied window; its fields are read from it */
    BOOL top;                      /* a proxied top-level window: next is the field */
    WCHAR name_buf[256], aid_buf[16], cls_buf[64];
} elem;

static const GUID iid_unknown = {0x00000000, 0x0000, 0x0000, {0xc0, 0, 0, 0, 0, 0, 0, 0x46}};
static const GUID iid_automation2 = {0x34723aff, 0x0c9d, 0x49d0, {0x98, 0x96, 0x7a, 0xb5, 0x2d, 0xf8, 0xcd, 0x8a}};
static const GUID iid_value = {0xa94cd8b1, 0x0844, 0x4cd6, {0x9d, 0x2d, 0x64, 0x05, 0x37, 0xab, 0x39, 0xe9}};
static const GUID iid_invoke = {0xfb377fbe, 0x8ea6, 0x46d5, {0x9c, 0x73, 0x64, 0x99, 0x64, 0x2d, 0x30, 0x59}};
static const GUID iid_toggle = {0x94cf8058, 0x9b8d, 0x4ab9, {0x8b, 0xfd, 0x4c, 0xd0, 0xa3, 0x3c, 0x8c, 0x70}};

static slot auto_vtbl[SLOTS], walker_vtbl[SLOTS], elem_vtbl[SLOTS], value_vtbl[SLOTS], invoke_vtbl[SLOTS], toggle_vtbl[SLOTS];
static slot request_vtbl[SLOTS], array_vtbl[SLOTS];
static struct { slot *vtbl; } automation = {auto_vtbl}, walker = {walker_vtbl}, request = {request_vtbl};

/* The tree: the desktop, a dialog "Sign in", a window "Other". */
static elem desktop, dialog, other, user_label, user, password, remember, ok1, ok2, pane, notes_label, notes, other_ok;

static void set(elem *e, int ct, const WCHAR *name, const WCHAR *aid, const WCHAR *cls, int l, int t, int r, int b) {
    e->vtbl = elem_vtbl; e->ct = ct; e->name = name; e->aid = aid; e->cls = cls;
    SetRect(&e->rc, l, t, r, b);
    e->pat.e = e;
}

static void kids(elem *p, elem **k, int n) {
    p->first = n ? k[0] : NULL;
    for (int i = 0; i < n; i++) { k[i]->parent = p; k[i]->next = i + 1 < n ? k[i + 1] : NULL; }
}

static ULONG WINAPI add_ref(void *this) { return InterlockedIncrement(&refs); }
static ULONG WINAPI release(void *this) { return InterlockedDecrement(&refs); }
static HRESULT WINAPI not_impl(void *this) { return E_NOTIMPL; }
static HRESULT give(void *obj, void **out) { *out = obj; if (obj) add_ref(obj); return S_OK; }

/* Proxied windows: one element per window handle, made on first sight. */
#define MAX_PROXIED 2048
static elem proxied[MAX_PROXIED];
static int nproxied;
static elem *last_top;             /* the last top-level window proxied */

static void window_text(HWND h, WCHAR *buf, int n) {
    DWORD_PTR len = 0;
    buf[0] = 0;
    if (SendMessageTimeoutW(h, WM_GETTEXT, n, (LPARAM)buf, SMTO_ABORTIFHUNG, 2000, &len)) buf[len < (DWORD_PTR)n ? len : n - 1] = 0;
}

static elem *proxy(HWND h);

/* fill reads what UIA's Win32 proxies would say of the window. */
static void describe(elem *e) {
    HWND h = e->hwnd;
    LONG style = GetWindowLongW(h, GWL_STYLE);
    GetClassNameW(h, e->cls_buf, 64);
    window_text(h, e->name_buf, 256);
    e->cls = e->cls_buf; e->name = e->name_buf; e->aid = NULL;
    e->offscreen = !IsWindowVisible(h);
    GetWindowRect(h, &e->rc);
    e->pat.e = e; e->pattern = 0; e->labeled_by = NULL; e->password = FALSE;
    if (style & WS_CHILD) {
        int id = GetDlgCtrlID(h);
        if (id > 0) { wsprintfW(e->aid_buf, L"%d", id); e->aid = e->aid_buf; }
    }
    if (e->top) { e->ct = 50032; return; }
    if (!lstrcmpiW(e->cls_buf, L"Button")) {
        int bs = style & 0xF;
        e->ct = bs == BS_GROUPBOX ? 50026 : (bs == BS_CHECKBOX || bs == BS_AUTOCHECKBOX || bs == BS_3STATE || bs == BS_AUTO3STATE) ? 50002
              : (bs == BS_RADIOBUTTON || bs == BS_AUTORADIOBUTTON) ? 50013 : 50000;
    } else if (!lstrcmpiW(e->cls_buf, L"Static")) {
        e->ct = 50020;
    } else if (!lstrcmpiW(e->cls_buf, L"Edit")) {
        HWND prev = GetWindow(h, GW_HWNDPREV);
        WCHAR pc[64];
        e->ct = 50004;
        e->password = (style & ES_PASSWORD) != 0;
        lstrcpynW(e->value, e->name_buf, 256);
        e->name = NULL;
        e->pattern = 10002; e->pat.vtbl = value_vtbl;
        if (prev && GetClassNameW(prev, pc, 64) && !lstrcmpiW(pc, L"Static")) {
            e->labeled_by = proxy(prev);
            e->name = e->labeled_by->name_buf;
        }
    } else {
        e->ct = 50033;
    }
}

static elem *proxy(HWND h) {
    for (int i = 0; i < nproxied; i++)
        if (proxied[i].hwnd == h) return &proxied[i];
    if (nproxied == MAX_PROXIED) return NULL;
    elem *e = &proxied[nproxied++];
    e->vtbl = elem_vtbl; e->hwnd = h;
    e->top = GetAncestor(h, GA_ROOT) == h;
    describe(e);
    return e;
}

static elem *first_of(elem *e) { return e->hwnd ? (GetWindow(e->hwnd, GW_CHILD) ? proxy(GetWindow(e->hwnd, GW_CHILD)) : NULL) : e->first; }
static elem *next_of(elem *e) {
    if (!e->hwnd || e->top) return e->next;
    HWND n = GetWindow(e->hwnd, GW_HWNDNEXT);
    return n ? proxy(n) : NULL;
}
static elem *parent_of(elem *e) {
    if (!e->hwnd || e->top) return e->parent;
    return proxy(GetParent(e->hwnd));
}

/* An element array, as GetCachedChildren gives. Never freed: a test's. */
typedef struct { slot *vtbl; int n; elem **items; } array;
static HRESULT WINAPI array_qi(void *this, const GUID *iid, void **out) {
    if (IsEqualGUID(iid, &iid_unknown)) return give(this, out);
    *out = NULL; return E_NOINTERFACE;
}
static HRESULT WINAPI array_length(array *a, int *n) { *n = a->n; return S_OK; }
static HRESULT WINAPI array_element(array *a, int i, void **out) {
    if (i < 0 || i >= a->n) return E_INVALIDARG;
    return give(a->items[i], out);
}

static HRESULT WINAPI auto_qi(void *this, const GUID *iid, void **out) {
    if (IsEqualGUID(iid, &iid_unknown) || IsEqualGUID(iid, &iid_automation2)) return give(this, out);
    *out = NULL; return E_NOINTERFACE;
}
static HRESULT WINAPI compare(void *this, elem *a, elem *b, BOOL *same) { *same = a == b; return S_OK; }
static HRESULT WINAPI root(void *this, void **out) { return give(&desktop, out); }

/* The deepest element whose rectangle holds pt: POINT comes by value. */
static elem *hit(elem *e, POINT pt) {
    for (elem *k = e->first; k; k = k->next)
        if (PtInRect(&k->rc, pt)) return hit(k, pt);
    return e;
}
static HRESULT WINAPI from_point(void *this, POINT pt, void **out) { return give(hit(&desktop, pt), out); }
static HRESULT WINAPI control_walker(void *this, void **out) { return give(&walker, out); }
static HRESULT WINAPI put_conn(void *this, DWORD ms) { conn_timeout = ms; return S_OK; }
static HRESULT WINAPI put_trans(void *this, DWORD ms) { trans_timeout = ms; return S_OK; }

static HRESULT WINAPI parent(void *this, elem *e, void **out) { return give(parent_of(e), out); }
static HRESULT WINAPI first(void *this, elem *e, void **out) { return give(first_of(e), out); }
static HRESULT WINAPI next(void *this, elem *e, void **out) { return give(next_of(e), out); }

static HRESULT WINAPI cache_request(void *this, void **out) { return give(&request, out); }
static HRESULT WINAPI request_qi(void *this, const GUID *iid, void **out) { *out = NULL; return E_NOINTERFACE; }
static HRESULT WINAPI request_ok(void *this, int arg) { return S_OK; }
static HRESULT WINAPI build_cache(elem *e, void *req, void **out) { return give(e, out); }
static HRESULT WINAPI cached_children(elem *e, void **out) {
    int n = 0;
    for (elem *k = first_of(e); k; k = next_of(k)) n++;
    if (!n) { *out = NULL; return S_OK; }
    array *a = HeapAlloc(GetProcessHeap(), 0, sizeof *a);
    a->vtbl = array_vtbl; a->n = n; a->items = HeapAlloc(GetProcessHeap(), 0, n * sizeof *a->items);
    n = 0;
    for (elem *k = first_of(e); k; k = next_of(k)) a->items[n++] = k;
    return give(a, out);
}
static HRESULT WINAPI cached_property(elem *e, int id, VARIANT *v) {
    VariantInit(v);
    if (id == 30043) { V_VT(v) = VT_BOOL; V_BOOL(v) = e->pattern == 10002 ? VARIANT_TRUE : VARIANT_FALSE; }
    return S_OK;
}
static HRESULT WINAPI current_property(elem *e, int id, VARIANT *v) {
    VariantInit(v);
    if (id != 30045 || e->pattern != 10002) return S_OK;
    if (e->password) { secret_reads++; return E_ACCESSDENIED; }
    if (e->hwnd) window_text(e->hwnd, e->value, 256);
    V_VT(v) = VT_BSTR; V_BSTR(v) = SysAllocString(e->value);
    return S_OK;
}
static HRESULT WINAPI walker_qi(void *this, const GUID *iid, void **out) { *out = NULL; return E_NOINTERFACE; }

static HRESULT WINAPI elem_qi(elem *e, const GUID *iid, void **out) {
    if (IsEqualGUID(iid, &iid_unknown)) return give(e, out);
    *out = NULL; return E_NOINTERFACE;
}
static HRESULT WINAPI set_focus(elem *e) { focuses++; return S_OK; }
static HRESULT WINAPI pattern(elem *e, int id, void **out) { return give(e->pattern == id ? &e->pat : NULL, out); }
static HRESULT WINAPI pid(elem *e, int *v) { *v = (int)GetCurrentProcessId(); return S_OK; }
static HRESULT WINAPI control_type(elem *e, int *v) { *v = e->ct; return S_OK; }
static HRESULT bstr(const WCHAR *s, BSTR *out) { *out = s ? SysAllocString(s) : NULL; return S_OK; }
static HRESULT WINAPI name(elem *e, BSTR *v) { if (delay) Sleep(delay); return bstr(e->name, v); }
static HRESULT WINAPI aid(elem *e, BSTR *v) { return bstr(e->aid, v); }
static HRESULT WINAPI cls(elem *e, BSTR *v) { return bstr(e->cls, v); }
static HRESULT WINAPI is_password(elem *e, BOOL *v) { *v = e->password; return S_OK; }
static HRESULT WINAPI offscreen(elem *e, BOOL *v) { *v = e->offscreen; return S_OK; }
static HRESULT WINAPI rect(elem *e, RECT *v) { *v = e->rc; return S_OK; }
static HRESULT WINAPI labeled_by(elem *e, void **out) { return give(e->labeled_by, out); }

static const GUID *pattern_iid(struct pat *p) {
    return p->e->pattern == 10002 ? &iid_value : p->e->pattern == 10000 ? &iid_invoke : &iid_toggle;
}
static HRESULT WINAPI pat_qi(struct pat *p, const GUID *iid, void **out) {
    if (IsEqualGUID(iid, &iid_unknown) || IsEqualGUID(iid, pattern_iid(p))) return give(p, out);
    *out = NULL; return E_NOINTERFACE;
}
static HRESULT WINAPI set_value(struct pat *p, BSTR v) {
    if (p->e->password) return E_ACCESSDENIED;
    lstrcpynW(p->e->value, v, 256); return S_OK;
}
static HRESULT WINAPI get_value(struct pat *p, BSTR *v) {
    if (p->e->password) { secret_reads++; return E_ACCESSDENIED; }
    if (p->e->hwnd) window_text(p->e->hwnd, p->e->value, 256);
    return bstr(p->e->value, v);
}
static HRESULT WINAPI read_only(struct pat *p, BOOL *v) { *v = FALSE; return S_OK; }
static HRESULT WINAPI invoke(struct pat *p) { invokes++; return S_OK; }
static HRESULT WINAPI toggle(struct pat *p) { toggles++; p->e->toggle = !p->e->toggle; return S_OK; }
static HRESULT WINAPI toggle_state(struct pat *p, int *v) { *v = p->e->toggle; return S_OK; }

static void fill(slot *v, slot qi) {
    for (int i = 0; i < SLOTS; i++) v[i] = not_impl;
    v[0] = qi; v[1] = add_ref; v[2] = release;
}

static void build(void) {
    fill(auto_vtbl, auto_qi);
    auto_vtbl[3] = compare; auto_vtbl[5] = root; auto_vtbl[7] = from_point; auto_vtbl[14] = control_walker;
    auto_vtbl[61] = put_conn; auto_vtbl[63] = put_trans; auto_vtbl[20] = cache_request;
    fill(request_vtbl, request_qi); request_vtbl[3] = request_ok; request_vtbl[4] = request_ok; request_vtbl[7] = request_ok;
    fill(array_vtbl, array_qi); array_vtbl[3] = array_length; array_vtbl[4] = array_element;
    fill(walker_vtbl, walker_qi);
    walker_vtbl[3] = parent; walker_vtbl[4] = first; walker_vtbl[6] = next;
    fill(elem_vtbl, elem_qi);
    elem_vtbl[3] = set_focus; elem_vtbl[16] = pattern; elem_vtbl[20] = pid; elem_vtbl[21] = control_type;
    elem_vtbl[23] = name; elem_vtbl[29] = aid; elem_vtbl[30] = cls; elem_vtbl[35] = is_password;
    elem_vtbl[38] = offscreen; elem_vtbl[43] = rect; elem_vtbl[44] = labeled_by;
    /* The cache: what List reads. The cached values are the current ones. */
    elem_vtbl[9] = build_cache; elem_vtbl[10] = current_property; elem_vtbl[12] = cached_property;
    elem_vtbl[19] = cached_children; elem_vtbl[52] = pid; elem_vtbl[53] = control_type; elem_vtbl[55] = name;
    elem_vtbl[61] = aid; elem_vtbl[62] = cls; elem_vtbl[67] = is_password; elem_vtbl[70] = offscreen;
    elem_vtbl[75] = rect; elem_vtbl[76] = labeled_by;
    fill(value_vtbl, pat_qi); value_vtbl[3] = set_value; value_vtbl[4] = get_value; value_vtbl[5] = read_only;
    fill(invoke_vtbl, pat_qi); invoke_vtbl[3] = invoke;
    fill(toggle_vtbl, pat_qi); toggle_vtbl[3] = toggle; toggle_vtbl[4] = toggle_state;

    set(&desktop, 50033, L"Desktop", NULL, L"#32769", 0, 0, 1024, 768);
    set(&dialog, 50032, L"Sign in", NULL, L"#32770", 100, 100, 500, 400);
    set(&other, 50032, L"Other", NULL, L"Other", 600, 100, 900, 300);
    set(&user_label, 50020, L"User name", NULL, NULL, 110, 130, 200, 150);
    set(&user, 50004, L"User name", L"1001", L"Edit", 210, 130, 480, 150);
    set(&password, 50004, L"Password", L"1002", L"Edit", 210, 160, 480, 180);
    set(&remember, 50002, L"Remember me", L"1003", L"Button", 110, 190, 300, 210);
    set(&ok1, 50000, L"OK", L"1", L"Button", 110, 350, 200, 380);
    set(&ok2, 50000, L"OK", NULL, L"Button", 210, 350, 300, 380);
    set(&pane, 50033, NULL, NULL, NULL, 110, 220, 480, 340);
    set(&notes_label, 50020, L"Notes", NULL, NULL, 120, 230, 200, 250);
    set(&notes, 50004, NULL, L"1005", L"Edit", 210, 230, 470, 330);
    set(&other_ok, 50000, L"OK", NULL, L"Button", 610, 250, 700, 280);
    password.password = TRUE;
    notes.labeled_by = &notes_label;
    user.pattern = password.pattern = notes.pattern = 10002;
    user.pat.vtbl = password.pat.vtbl = notes.pat.vtbl = value_vtbl;
    ok1.pattern = ok2.pattern = other_ok.pattern = 10000;
    ok1.pat.vtbl = ok2.pat.vtbl = other_ok.pat.vtbl = invoke_vtbl;
    remember.pattern = 10015; remember.pat.vtbl = toggle_vtbl;

    elem *top[] = {&dialog, &other};
    elem *form[] = {&user_label, &user, &password, &remember, &ok1, &ok2, &pane};
    elem *inner[] = {&notes_label, &notes};
    elem *o[] = {&other_ok};
    kids(&desktop, top, 2); kids(&dialog, form, 7); kids(&pane, inner, 2); kids(&other, o, 1);
}

__declspec(dllexport) HRESULT FakeUIA_Create(void **out) {
    static int built;
    if (!built) { build(); built = 1; }
    return give(&automation, out);
}
__declspec(dllexport) LONG FakeUIA_Refs(void) { return refs; }
__declspec(dllexport) LONG FakeUIA_SecretReads(void) { return secret_reads; }

/* FakeUIA_Proxy adds top-level window h to the desktop, after the others. */
__declspec(dllexport) HRESULT FakeUIA_Proxy(HWND h) {
    void *unused;
    FakeUIA_Create(&unused); release(unused);
    if (!h || GetAncestor(h, GA_ROOT) != h) return E_INVALIDARG;
    elem *e = proxy(h);
    if (!e) return E_OUTOFMEMORY;
    e->parent = &desktop;
    if (e == last_top || e->next || &other == e) return S_OK;
    if (last_top) last_top->next = e; else other.next = e;
    last_top = e;
    return S_OK;
}
__declspec(dllexport) LONG FakeUIA_Invokes(void) { return invokes; }
__declspec(dllexport) LONG FakeUIA_Toggles(void) { return toggles; }
__declspec(dllexport) LONG FakeUIA_Focuses(void) { return focuses; }
__declspec(dllexport) void FakeUIA_Delay(DWORD ms) { delay = ms; }
__declspec(dllexport) DWORD FakeUIA_Timeout(int transaction) { return transaction ? trans_timeout : conn_timeout; }
