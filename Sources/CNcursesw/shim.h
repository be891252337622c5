// The only C surface of ServiceConfiguration's terminal backend: ncursesw with its wide-character API, plus small
// accessors for what Swift cannot import directly (macros built from expressions, and C globals such as stdscr,
// which Swift 6 rejects as shared mutable state).
#ifndef SERVICE_CONFIGURATION_CNCURSESW_SHIM_H
#define SERVICE_CONFIGURATION_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D flags, and without these the wide-character functions (mvwadd_wch, wget_wch,
// setcchar) are not declared.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <curses.h>
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>

typedef WINDOW scm_window;

static inline WINDOW *scm_stdscr(void) { return stdscr; }
static inline int scm_colors(void) { return COLORS; }
static inline int scm_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t scm_attr_normal(void) { return A_NORMAL; }
static inline attr_t scm_attr_bold(void) { return A_BOLD; }
static inline attr_t scm_attr_dim(void) { return A_DIM; }
static inline attr_t scm_attr_reverse(void) { return A_REVERSE; }
static inline attr_t scm_attr_underline(void) { return A_UNDERLINE; }

static inline mmask_t scm_mouse_events(void) { return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED; }
static inline mmask_t scm_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t scm_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t scm_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t scm_button5_pressed(void) { return BUTTON5_PRESSED; }

/// Writes one character cell with attributes and a colour pair. `text` is a NUL-terminated wide string holding one
/// base character and any combining characters.
static inline int scm_put_cell(WINDOW *window, int y, int x, const wchar_t *text, attr_t attributes, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
    return mvwadd_wch(window, y, x, &cell);
}

/// Whether the current locale's character encoding is UTF-8.
static inline int scm_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't');
}

#endif
