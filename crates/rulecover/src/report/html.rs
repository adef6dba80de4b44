//! HTML pieces of the report: escaping, the page's inline style sheet and
//! script, tables and bars. Nothing here loads anything from outside the
//! page.

use std::fmt::Write as _;

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in HTML text and
/// in a quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number for a table cell: four significant decimals, `–` when
/// undefined.
pub(crate) fn num(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => rulecover_core::rule::format_number(round4(v)),
        Some(v) => v.to_string(),
        None => "–".into(),
    }
}

fn round4(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let digits = 4 - v.abs().log10().floor() as i32 - 1;
    let digits = digits.clamp(0, 12);
    let scale = 10f64.powi(digits);
    (v * scale).round() / scale
}

/// A horizontal bar for a share in `[0, 1]`, with its text beside it;
/// `value` is the cell's sort key.
pub(crate) fn bar_cell(share: Option<f64>, text: &str, class: &str) -> String {
    match share {
        Some(s) if s.is_finite() => {
            let width = (s.clamp(0.0, 1.0) * 100.0 * 10.0).round() / 10.0;
            format!(
                "<td class=\"barcell\" data-v=\"{s}\"><span class=\"bar {class}\"><span style=\"width:{width}%\"></span></span> {}</td>",
                escape(text)
            )
        }
        _ => "<td class=\"num\" data-v=\"\">–</td>".into(),
    }
}

/// A two-column table of `(name, value)` rows; both are escaped.
pub(crate) fn key_values(class: &str, rows: &[(String, String)]) -> String {
    let mut out = format!("<table class=\"{class}\"><tbody>");
    for (k, v) in rows {
        let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The page's style sheet (inline).
pub(crate) const STYLE: &str = r#"
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.sub{color:#666;margin-top:0}
table{border-collapse:collapse;font-size:.9em}
th,td{padding:.25em .6em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
table.kv th{font-weight:600;color:#444}
table.rules{width:100%}
table.rules thead th{position:sticky;top:0;background:#f6f6f6;cursor:pointer;user-select:none;white-space:nowrap}
table.rules thead th:after{content:" \2195";color:#bbb}
table.rules thead th[aria-sort=ascending]:after{content:" \2191";color:#333}
table.rules thead th[aria-sort=descending]:after{content:" \2193";color:#333}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.barcell{white-space:nowrap;font-variant-numeric:tabular-nums}
.cards h3{margin-top:0;font-size:1em}
td.rule{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95em}
.bar{display:inline-block;width:60px;height:.7em;background:#eee;vertical-align:middle;border-radius:2px;overflow:hidden}
.bar span{display:block;height:100%;background:#4c78a8}
.bar.support span{background:#72b7b2}.bar.cls span{background:#f58518}
.filter{margin:.5em 0;display:flex;gap:1em;align-items:center}
.filter input{font-size:1em;padding:.3em .5em;width:24em}
.note{color:#666;font-size:.9em}
.cards{display:flex;flex-wrap:wrap;gap:.8em}
.card{border:1px solid #ddd;border-radius:6px;padding:.5em .9em;min-width:8em}
.card b{display:block;font-size:1.3em}
svg text{font-family:system-ui,sans-serif}
"#;

/// The page's script (inline): sorting the rules table by a header click
/// and filtering its rows through the text box.
pub(crate) const SCRIPT: &str = r#"
(function(){
  var table=document.getElementById('rules');
  if(!table){return;}
  var body=table.tBodies[0];
  var heads=table.tHead.rows[0].cells;
  function key(row,i){
    var c=row.cells[i];var v=c.getAttribute('data-v');
    if(v!==null&&v!==''&&!isNaN(Number(v))){return Number(v);}
    if(v===''){return -Infinity;}
    return c.textContent.toLowerCase();
  }
  Array.prototype.forEach.call(heads,function(th,i){
    th.addEventListener('click',function(){
      var asc=th.getAttribute('aria-sort')!=='ascending';
      Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',asc?'ascending':'descending');
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){
        var x=key(a,i),y=key(b,i);
        if(typeof x!==typeof y){x=String(x);y=String(y);}
        var r=x<y?-1:(x>y?1:0);
        return asc?r:-r;
      });
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  var box=document.getElementById('rule-filter');
  var count=document.getElementById('rule-count');
  function filter(){
    var q=box.value.trim().toLowerCase();var shown=0;
    Array.prototype.forEach.call(body.rows,function(r){
      var hit=q===''||r.textContent.toLowerCase().indexOf(q)>=0;
      r.style.display=hit?'':'none';if(hit){shown++;}
    });
    count.textContent=shown+' of '+body.rows.length+' rules shown';
  }
  box.addEventListener('input',filter);
  filter();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn numbers_keep_four_significant_digits() {
        assert_eq!(num(Some(0.123456)), "0.1235");
        assert_eq!(num(Some(1234.5678)), "1235");
        assert_eq!(num(None), "–");
    }
}
