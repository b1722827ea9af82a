/* Numbers in specs, model files and logs are C-locale text ("0.5", never
 * "0,5"), whatever locale the host program set: parse and print them inside
 * a c_locale_enter/leave pair (per thread, through uselocale). */
#ifndef VQHIP_C_LOCALE_H
#define VQHIP_C_LOCALE_H

#include <locale.h>

typedef struct CLocale {
    locale_t c, old;
} CLocale;

static inline void c_locale_enter(CLocale *l)
{
    l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

static inline void c_locale_leave(CLocale *l)
{
    if (l->c) {
        uselocale(l->old);
        freelocale(l->c);
    }
}

#endif
