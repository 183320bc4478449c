/* biasbench report: filterable drill-down tables over the responses embedded in the page.
 *
 * The data of each drill-down is a JSON blob in a script element of type application/json.
 * Every value (model output, prompt, evidence) is untrusted: it is only ever put into the page
 * with textContent, never parsed as HTML.
 */
(function () {
  "use strict";

  var PAGE_SIZE = 50;

  function column(data, key) {
    var col = data.columns[key];
    if (!col) { return function () { return null; }; }
    if (col.d) { return function (i) { return col.d[i]; }; }
    return function (i) { var c = col.c[i]; return c < 0 ? null : col.v[c]; };
  }

  function text(value) {
    return value === null || value === undefined ? "" : String(value);
  }

  function el(tag, className, content) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (content !== undefined && content !== null) { node.textContent = String(content); }
    return node;
  }

  function distinct(data, key, rows) {
    var col = data.columns[key];
    var seen = {};
    var out = [];
    var get = column(data, key);
    if (col && col.v && !rows) {
      col.v.forEach(function (v) { seen[text(v)] = true; out.push(text(v)); });
    } else {
      var n = rows ? rows.length : data.n;
      for (var k = 0; k < n; k++) {
        var v = text(get(rows ? rows[k] : k));
        if (!seen[v]) { seen[v] = true; out.push(v); }
      }
    }
    return out.sort(function (a, b) { return a.localeCompare(b, undefined, {numeric: true}); });
  }

  function labelBadge(value) {
    var span = el("span", "lab lab-" + text(value).split(" ")[0].replace(/[^a-z_]/g, ""), value);
    return span;
  }

  function cell(data, spec, i) {
    var td = el("td", spec.kind === "text" ? "text" : (spec.kind === "num" ? "num" : ""));
    var value = column(data, spec.key)(i);
    if (spec.lang) { td.lang = spec.lang; }
    if (spec.kind === "label") {
      td.appendChild(labelBadge(text(value)));
    } else if (spec.kind === "details") {
      var details = el("details");
      details.appendChild(el("summary", null, spec.summary || "show"));
      (spec.parts || []).forEach(function (part) {
        var partValue = column(data, part.key)(i);
        if (partValue === null || partValue === "") { return; }
        details.appendChild(el("div", "muted", part.title));
        var pre = el("pre", null, partValue);
        if (part.lang) { pre.lang = part.lang; }
        details.appendChild(pre);
      });
      td.appendChild(details);
    } else {
      td.textContent = text(value);
    }
    if (spec.alt) {
      var alt = column(data, spec.alt)(i);
      if (alt !== null) {
        td.appendChild(document.createElement("br"));
        var span = el("span", "muted", alt);
        if (spec.altLang) { span.lang = spec.altLang; }
        td.appendChild(span);
      }
    }
    return td;
  }

  function makeSelect(title, values) {
    var label = el("label", null, title);
    var select = el("select");
    select.appendChild(el("option", null, "(all)"));  /* option 0: no filter */
    values.forEach(function (v) {
      var option = el("option", null, v === "" ? "(none)" : v);
      option.value = v;
      select.appendChild(option);
    });
    label.appendChild(select);
    return {label: label, select: select};
  }

  /* One filterable, paginated table. `rows` lists the candidate row ids; `matches(id)` applies
   * the view's own extra conditions; `render(id)` returns a <tr>. */
  function filteredTable(root, options) {
    var controls = el("div", "controls");
    var filters = options.filters.map(function (f) {
      var made = makeSelect(f.title, f.values);
      controls.appendChild(made.label);
      made.select.addEventListener("change", function () { page = 0; refresh(); });
      return {get: f.get, select: made.select};
    });
    var search = null;
    if (options.search) {
      var searchLabel = el("label", null, options.search.title);
      search = el("input");
      search.type = "search";
      search.placeholder = "text in output, evidence\u2026";
      searchLabel.appendChild(search);
      controls.appendChild(searchLabel);
      search.addEventListener("input", function () { page = 0; refresh(); });
    }
    (options.checks || []).forEach(function (check) {
      var label = el("label", "check");
      var box = el("input");
      box.type = "checkbox";
      check.box = box;
      label.appendChild(box);
      label.appendChild(document.createTextNode(check.title));
      controls.appendChild(label);
      box.addEventListener("change", function () { page = 0; refresh(); });
    });
    root.appendChild(controls);

    var pager = el("div", "pager");
    var prev = el("button", null, "\u2190 previous");
    var next = el("button", null, "next \u2192");
    var status = el("span");
    prev.type = next.type = "button";
    pager.appendChild(prev);
    pager.appendChild(next);
    pager.appendChild(status);
    root.appendChild(pager);

    var wrap = el("div", "scroll");
    var table = el("table", "drill");
    var head = el("thead");
    var headRow = el("tr");
    options.headers.forEach(function (h) { headRow.appendChild(el("th", null, h)); });
    head.appendChild(headRow);
    var body = el("tbody");
    table.appendChild(head);
    table.appendChild(body);
    wrap.appendChild(table);
    root.appendChild(wrap);

    var page = 0;
    var current = [];
    prev.addEventListener("click", function () { if (page > 0) { page--; draw(); } });
    next.addEventListener("click", function () {
      if ((page + 1) * PAGE_SIZE < current.length) { page++; draw(); }
    });

    function refresh() {
      var needle = search ? search.value.trim().toLowerCase() : "";
      current = options.rows.filter(function (id) {
        for (var f = 0; f < filters.length; f++) {
          var select = filters[f].select;
          if (select.selectedIndex > 0 && text(filters[f].get(id)) !== select.value) {
            return false;
          }
        }
        for (var c = 0; c < (options.checks || []).length; c++) {
          var check = options.checks[c];
          if (check.box.checked && !check.test(id)) { return false; }
        }
        if (needle && !options.search.test(id, needle)) { return false; }
        return true;
      });
      draw();
    }

    function draw() {
      while (body.firstChild) { body.removeChild(body.firstChild); }
      var start = page * PAGE_SIZE;
      var end = Math.min(current.length, start + PAGE_SIZE);
      for (var k = start; k < end; k++) { body.appendChild(options.render(current[k])); }
      status.textContent = current.length === 0 ? "no matching rows" :
        "rows " + (start + 1).toLocaleString() + "\u2013" + end.toLocaleString() + " of " +
        current.length.toLocaleString() + " (of " + options.rows.length.toLocaleString() + ")";
      prev.disabled = page === 0;
      next.disabled = end >= current.length;
    }

    refresh();
  }

  function responsesView(root, data) {
    var ids = [];
    for (var i = 0; i < data.n; i++) { ids.push(i); }
    var searchGetters = (data.search || []).map(function (key) { return column(data, key); });
    filteredTable(root, {
      rows: ids,
      filters: data.filters.map(function (f) {
        return {title: f.title, values: distinct(data, f.key), get: column(data, f.key)};
      }),
      search: searchGetters.length ? {
        title: "Search",
        test: function (id, needle) {
          return searchGetters.some(function (get) {
            return text(get(id)).toLowerCase().indexOf(needle) >= 0;
          });
        }
      } : null,
      headers: data.show.map(function (s) { return s.title; }),
      render: function (id) {
        var tr = el("tr");
        data.show.forEach(function (spec) { tr.appendChild(cell(data, spec, id)); });
        return tr;
      }
    });
  }

  function pairsView(root, data) {
    var pairs = data.pairs;
    var ids = [];
    for (var k = 0; k < pairs.left.length; k++) { ids.push(k); }
    function onLeft(key) {
      var get = column(data, key);
      return function (k) { return get(pairs.left[k]); };
    }
    var leftIds = pairs.left;
    filteredTable(root, {
      rows: ids,
      filters: pairs.filters.map(function (f) {
        return {title: f.title, values: distinct(data, f.key, leftIds), get: onLeft(f.key)};
      }),
      checks: [{title: "discordant pairs only", test: function (k) { return !!pairs.flag[k]; }}],
      headers: pairs.headers,
      render: function (k) {
        var tr = el("tr", pairs.flag[k] ? "discordant" : "");
        pairs.shared.forEach(function (spec) { tr.appendChild(cell(data, spec, pairs.left[k])); });
        pairs.side.forEach(function (spec) { tr.appendChild(cell(data, spec, pairs.left[k])); });
        pairs.side.forEach(function (spec) { tr.appendChild(cell(data, spec, pairs.right[k])); });
        tr.appendChild(el("td", "flag", pairs.flag[k] || ""));
        return tr;
      }
    });
  }

  var blobs = {};
  function blob(id) {
    if (!blobs[id]) { blobs[id] = JSON.parse(document.getElementById(id).textContent); }
    return blobs[id];
  }

  document.querySelectorAll("div[data-drilldown]").forEach(function (root) {
    var data = blob(root.getAttribute("data-drilldown"));
    if (root.getAttribute("data-view") === "pairs") {
      pairsView(root, data);
    } else {
      responsesView(root, data);
    }
  });
  document.documentElement.setAttribute("data-report-ready", "1");
})();
