import { describe, expect, it } from 'vitest';
import { inertHtml } from '../../server/sending/inert-html.js';

/** The view-in-browser page's cleaning, read the way the HTML tokenizer reads tags and attributes. */

describe('inert HTML', () => {
  it('drops scripts with their content, refreshes and other http-equiv, and base, in any case or spelling', () => {
    expect(inertHtml('a<script>x()</script>b<SCRIPT src=y></SCRIPT >c<script>cut off')).toBe('abc');
    expect(
      inertHtml(
        '<meta/http-equiv=refresh content=0><meta content="0;url=x>" HTTP-EQUIV="refresh">' +
          '<meta http-equiv="set-cookie" content="a=b">t<base/href=//evil.example><BASE href="x">',
      ),
    ).toBe('t');
    expect(inertHtml('<meta charset="utf-8"><meta name="viewport" content="width=device-width">')).toBe(
      '<meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    );
  });

  it('drops every event handler, however it is written', () => {
    expect(inertHtml('<p onclick\n=\n"y" ONMOUSEOVER=\'z\' class=a>t</p>')).toBe('<p class=a>t</p>');
    expect(inertHtml('<body onload="s()"><svg><animate onbegin="s()"/></svg>')).toBe(
      '<body><svg><animate /></svg>',
    );
    // `/` separates attributes outside an unquoted value…
    expect(inertHtml('<img/src="x"/onerror=alert(1)>')).toBe('<img src="x">');
    // …but belongs to it inside one, where the browser reads no handler either.
    expect(inertHtml('<img/src=x/onerror=alert(1)>')).toBe('<img src=x/onerror=alert(1)>');
    // A quote inside an unquoted value starts nothing.
    expect(inertHtml('<img src=x" onerror=alert(1) alt=1>')).toBe('<img src=x" alt=1>');
    // A `>` inside a quoted value does not end the tag.
    expect(inertHtml('<div title="a>b" onclick=x>ok</div>')).toBe('<div title="a>b">ok</div>');
  });

  it('keeps text, comments, stray `<` and ordinary markup as written', () => {
    const html =
      '<!-- note --><p class="a">1 < 2 & <b>bold</b></p><a href="https://a.example/?q=1&b=2">l</a><br/>';
    expect(inertHtml(html)).toBe(html.replace('<br/>', '<br />'));
    // A tag cut off by the end of input is dropped, as browsers drop it.
    expect(inertHtml('ok<img src="x" onerror="y()"')).toBe('ok');
  });
});
