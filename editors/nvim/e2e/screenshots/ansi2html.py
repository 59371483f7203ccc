#!/usr/bin/env python3
"""tmux capture-pane -p -e output (SGR colours: 16, 256, 24-bit) to HTML."""
import html, re, sys

BASE16 = ['#000000', '#cd0000', '#00cd00', '#cdcd00', '#0000ee', '#cd00cd', '#00cdcd', '#e5e5e5',
          '#7f7f7f', '#ff0000', '#00ff00', '#ffff00', '#5c5cff', '#ff00ff', '#00ffff', '#ffffff']

def c256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        v = [0, 95, 135, 175, 215, 255]
        return '#%02x%02x%02x' % (v[n // 36], v[(n // 6) % 6], v[n % 6])
    g = 8 + (n - 232) * 10
    return '#%02x%02x%02x' % (g, g, g)

def main(bg, fg):
    text = sys.stdin.read()
    st = {'fg': None, 'bg': None, 'bold': False, 'italic': False, 'ul': False, 'rev': False}
    out = []
    for line in text.rstrip('\n').split('\n'):
        parts = re.split(r'(\x1b\[[0-9;:]*m)', line)
        row = []
        for p in parts:
            m = re.fullmatch(r'\x1b\[([0-9;:]*)m', p)
            if m:
                codes = [int(x) if x else 0 for x in re.split('[;:]', m.group(1))] or [0]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        st = {'fg': None, 'bg': None, 'bold': False, 'italic': False, 'ul': False, 'rev': False}
                    elif c == 1: st['bold'] = True
                    elif c == 3: st['italic'] = True
                    elif c == 4: st['ul'] = True
                    elif c == 7: st['rev'] = True
                    elif c == 22: st['bold'] = False
                    elif c == 23: st['italic'] = False
                    elif c == 24: st['ul'] = False
                    elif c == 27: st['rev'] = False
                    elif 30 <= c <= 37: st['fg'] = BASE16[c - 30]
                    elif 90 <= c <= 97: st['fg'] = BASE16[c - 90 + 8]
                    elif 40 <= c <= 47: st['bg'] = BASE16[c - 40]
                    elif 100 <= c <= 107: st['bg'] = BASE16[c - 100 + 8]
                    elif c == 39: st['fg'] = None
                    elif c == 49: st['bg'] = None
                    elif c in (38, 48):
                        key = 'fg' if c == 38 else 'bg'
                        if codes[i + 1] == 5:
                            st[key] = c256(codes[i + 2]); i += 2
                        elif codes[i + 1] == 2:
                            st[key] = '#%02x%02x%02x' % tuple(codes[i + 2:i + 5]); i += 4
                    i += 1
                continue
            if not p:
                continue
            f, b = st['fg'] or fg, st['bg'] or bg
            if st['rev']:
                f, b = b, f
            style = 'color:%s;background:%s' % (f, b)
            if st['bold']: style += ';font-weight:bold'
            if st['italic']: style += ';font-style:italic'
            if st['ul']: style += ';text-decoration:underline'
            row.append('<span style="%s">%s</span>' % (style, html.escape(p)))
        out.append(''.join(row))
    print('<!doctype html><meta charset="utf-8"><style>body{margin:0;background:%s}'
          'pre{margin:0;padding:6px;font:15px/18px "DejaVu Sans Mono",monospace;color:%s}</style><pre>%s</pre>'
          % (bg, fg, '\n'.join(out)))

main(sys.argv[1] if len(sys.argv) > 1 else '#14161b', sys.argv[2] if len(sys.argv) > 2 else '#e0e2ea')
