/*
 * The lock dashboard's page. Plain JavaScript: every value from the server is put in the page as text
 * (textContent, attribute values), never parsed as HTML.
 */
(function () {
  'use strict';

  function meta(name) {
    var element = document.querySelector('meta[name="distlock-' + name + '"]');
    return element ? element.getAttribute('content') || '' : '';
  }

  var config = {
    base: meta('base'),
    admin: meta('admin') === 'true',
    refresh: Math.max(250, parseInt(meta('refresh'), 10) || 2000),
    timeout: Math.max(1000, parseInt(meta('timeout'), 10) || 8000),
    csrfHeader: meta('csrf-header'),
    csrfToken: meta('csrf-token')
  };

  var query = { q: '', sort: 'age', order: 'desc', offset: 0, limit: 50 };
  var view = {
    data: null,          // the latest state that arrived
    receivedAt: 0,       // performance.now() when it arrived
    lastOkAt: 0,         // performance.now() of the latest answer of the application
    failure: null,       // why the latest refresh failed, or null
    refreshes: 0,
    timer: null,
    inFlight: null
  };

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var element = document.createElement(tag);
    if (className) { element.className = className; }
    if (text !== undefined && text !== null) { element.textContent = String(text); }
    return element;
  }

  function duration(ms) {
    if (ms === null || ms === undefined || isNaN(ms)) { return '—'; }
    var negative = ms < 0;
    var s = Math.floor(Math.abs(ms) / 1000);
    var text;
    if (s < 60) { text = s + ' s'; }
    else if (s < 3600) { text = Math.floor(s / 60) + ' min ' + (s % 60) + ' s'; }
    else if (s < 86400) { text = Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min'; }
    else { text = Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h'; }
    return negative ? '−' + text : text;
  }

  function clockTime(iso) {
    if (!iso) { return '—'; }
    var date = new Date(iso);
    return isNaN(date.getTime()) ? String(iso) : date.toLocaleTimeString();
  }

  function dateTime(iso) {
    if (!iso) { return '—'; }
    var date = new Date(iso);
    return isNaN(date.getTime()) ? String(iso) : date.toLocaleString() + ' (' + iso + ')';
  }

  function elapsed() { return performance.now() - view.receivedAt; }

  /* ---- refresh ---- */

  function stateUrl() {
    var params = new URLSearchParams();
    if (query.q) { params.set('q', query.q); }
    params.set('sort', query.sort);
    params.set('order', query.order);
    params.set('offset', String(query.offset));
    params.set('limit', String(query.limit));
    return config.base + '/api/state?' + params.toString();
  }

  function refresh() {
    if (view.timer) { clearTimeout(view.timer); view.timer = null; }
    if (view.inFlight) { view.inFlight.abort(); }
    var controller = new AbortController();
    view.inFlight = controller;
    var timedOut = false;
    var timeout = setTimeout(function () { timedOut = true; controller.abort(); }, config.timeout);
    fetch(stateUrl(), { headers: { 'Accept': 'application/json' }, credentials: 'same-origin', signal: controller.signal,
        cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) {
          return response.text().then(function (body) { throw new Error(problemText(response, body)); });
        }
        return response.json();
      })
      .then(function (data) {
        view.data = data;
        view.receivedAt = performance.now();
        view.lastOkAt = view.receivedAt;
        view.failure = null;
        view.refreshes++;
        document.body.setAttribute('data-refreshes', String(view.refreshes));
        render();
        if (view.refreshes === 1) {
          document.body.setAttribute('data-first-render-ms', String(Math.round(performance.now())));
        }
      })
      .catch(function (error) {
        if (controller !== view.inFlight) { return; }
        view.failure = timedOut ? 'no answer within ' + duration(config.timeout)
          : (error && error.message ? error.message : 'no answer');
        renderStatus();
      })
      .then(function () {
        clearTimeout(timeout);
        if (controller === view.inFlight) {
          view.inFlight = null;
          view.timer = setTimeout(refresh, config.refresh);
        }
      });
  }

  function problemText(response, body) {
    try {
      var problem = JSON.parse(body);
      if (problem && problem.detail) { return problem.detail; }
    } catch (ignored) { /* not JSON */ }
    return 'HTTP ' + response.status;
  }

  /* ---- rendering ---- */

  function render() {
    var data = view.data;
    $('instance').textContent = data.instance || '—';
    $('mode').textContent = data.mode;
    document.body.classList.toggle('admin', !!data.admin);
    renderStatus();
    renderLocks(data.locks);
    renderJobs(data.jobs);
    renderEvents(data.events);
  }

  function renderStatus() {
    var status = $('status');
    var banner = $('banner');
    var data = view.data;
    var state;
    var message = null;
    var sinceOk = view.lastOkAt ? performance.now() - view.lastOkAt : null;
    if (view.failure) {
      state = 'unreachable';
      message = 'The application does not answer (' + view.failure + ')'
        + (sinceOk !== null ? '; what you see is ' + duration(sinceOk) + ' old.' : '; nothing to show yet.');
    } else if (data && !data.store.reachable) {
      state = 'store-down';
      message = 'Lock store unreachable: ' + data.store.problem
        + (data.store.readAt ? '. Showing what it answered at ' + clockTime(data.store.readAt) + ' ('
          + duration(data.store.ageMillis + elapsed()) + ' ago).' : '. It has not answered since start-up: no data.');
    } else if (data && sinceOk !== null && sinceOk > 3 * config.refresh + config.timeout) {
      state = 'stale';
      message = 'No refresh for ' + duration(sinceOk) + ': the data is stale.';
    } else if (data) {
      state = 'live';
    } else {
      state = 'loading';
    }
    status.setAttribute('data-state', state);
    status.textContent = state === 'live' ? 'Live · refreshed ' + duration(sinceOk) + ' ago'
      : state === 'store-down' ? 'Store unreachable' : state === 'unreachable' ? 'Application unreachable'
      : state === 'stale' ? 'Stale' : 'Loading…';
    banner.hidden = message === null;
    banner.textContent = message || '';
    document.body.classList.toggle('stale', state !== 'live' && state !== 'loading');
  }

  function renderLocks(page) {
    var tbody = document.querySelector('#locks tbody');
    var empty = $('locks-empty');
    var fragment = document.createDocumentFragment();
    if (!page) {
      tbody.replaceChildren();
      empty.hidden = false;
      empty.textContent = 'No data: the lock store has not answered yet.';
      $('lock-summary').textContent = '';
      $('page-info').textContent = '';
      return;
    }
    page.rows.forEach(function (row) { fragment.appendChild(lockRow(row)); });
    tbody.replaceChildren(fragment);
    empty.hidden = page.rows.length > 0;
    empty.textContent = page.total === 0 ? 'No lock is held.' : 'No lock matches the filter.';
    var summary = page.total.toLocaleString() + (page.total === 1 ? ' lock' : ' locks');
    if (page.expiring) { summary += ' · ' + page.expiring.toLocaleString() + ' about to expire'; }
    if (page.longHeld) { summary += ' · ' + page.longHeld.toLocaleString() + ' held long'; }
    $('lock-summary').textContent = '(' + summary + ')';
    var first = page.matched === 0 ? 0 : page.offset + 1;
    var last = Math.min(page.offset + page.limit, page.matched);
    $('page-info').textContent = page.matched === 0 ? '' : first.toLocaleString() + '–' + last.toLocaleString()
      + ' of ' + page.matched.toLocaleString() + (page.matched !== page.total ? ' matching' : '');
    $('prev').disabled = page.offset === 0;
    $('next').disabled = page.offset + page.limit >= page.matched;
  }

  function cell(tr, label, className, text) {
    var td = el('td', className, text);
    td.setAttribute('data-label', label);
    tr.appendChild(td);
    return td;
  }

  function lockRow(row) {
    var tr = el('tr');
    tr.setAttribute('data-resource', row.resource);
    tr.setAttribute('data-token', String(row.token));
    if (row.expiring) { tr.classList.add('expiring'); }
    if (row.longHeld) { tr.classList.add('long-held'); }
    var name = cell(tr, 'Resource', 'resource', row.resource);
    if (row.mine) { name.appendChild(el('span', 'tag mine', 'this instance')); }
    if (row.expiring) { name.appendChild(el('span', 'tag expiring', 'about to expire')); }
    if (row.longHeld) { name.appendChild(el('span', 'tag long-held', 'held long')); }
    cell(tr, 'Instance', 'instance', row.instance || '—');
    cell(tr, 'Owner', 'owner', row.owner);
    cell(tr, 'Token', 'num token', row.token);
    var held = cell(tr, 'Held for', 'held countdown', duration(row.heldMillis));
    held.setAttribute('data-base', String(row.heldMillis));
    held.setAttribute('data-direction', 'up');
    held.title = 'Acquired at ' + dateTime(row.acquiredAt);
    var expires = cell(tr, 'Expires in', 'expires countdown', duration(row.expiresInMillis));
    expires.setAttribute('data-base', String(row.expiresInMillis));
    expires.setAttribute('data-direction', 'down');
    expires.title = 'Expires at ' + dateTime(row.expiresAt) + ' unless renewed';
    cell(tr, 'Renewals', 'num renewals', row.renewals === null || row.renewals === undefined ? '—' : row.renewals)
      .title = row.mine ? 'Renewed by this instance' : 'Counted by the holding instance only';
    if (view.data && view.data.admin) {
      var action = cell(tr, 'Action', 'admin-only', null);
      var button = el('button', 'release', 'Release');
      button.type = 'button';
      button.addEventListener('click', function () { confirmRelease(row); });
      action.appendChild(button);
    }
    return tr;
  }

  function renderJobs(jobs) {
    var container = $('jobs');
    var empty = $('jobs-empty');
    var attention = [];
    var fragment = document.createDocumentFragment();
    (jobs || []).forEach(function (job) {
      fragment.appendChild(jobBlock(job));
      var bad = [];
      if (job.missed) { bad.push(job.missed + ' missed'); }
      if (job.crashed) { bad.push(job.crashed + ' crashed'); }
      if (job.failed) { bad.push(job.failed + ' failed'); }
      if (job.lost) { bad.push(job.lost + ' lost'); }
      if (bad.length) { attention.push('“' + job.job + '”: ' + bad.join(', ')); }
    });
    container.replaceChildren(fragment);
    empty.hidden = !!(jobs && jobs.length);
    empty.textContent = jobs ? 'No @OncePerSlot job is declared here or recorded in the slot history.'
      : 'No data: the lock store has not answered yet.';
    var bar = $('attention');
    bar.hidden = attention.length === 0;
    bar.textContent = attention.length ? 'Attention — recent slots went wrong: ' + attention.join('; ') : '';
  }

  function jobBlock(job) {
    var block = el('div', 'job');
    block.setAttribute('data-job', job.job);
    if (job.missed || job.crashed || job.failed || job.lost) { block.classList.add('attention-needed'); }
    var head = el('div', 'job-head');
    head.appendChild(el('span', 'job-name', job.job));
    head.appendChild(el('span', 'job-meta', job.schedule ? job.schedule : 'declared by another application'));
    if (job.nextFireAt) {
      var next = el('span', 'job-meta next-fire countdown', 'next in ' + duration(job.nextFireInMillis));
      next.setAttribute('data-base', String(job.nextFireInMillis));
      next.setAttribute('data-direction', 'down');
      next.setAttribute('data-prefix', 'next in ');
      next.title = 'Next fire time ' + dateTime(job.nextFireAt);
      head.appendChild(next);
    }
    var last = job.last;
    head.appendChild(el('span', 'job-meta last', last ? 'last: ' + last.kind + ' at ' + clockTime(last.startedAt)
      + (last.instance ? ' on ' + last.instance : '') : 'no run yet'));
    [['missed', job.missed], ['crashed', job.crashed], ['failed', job.failed], ['lost', job.lost]].forEach(function (c) {
      if (c[1]) { head.appendChild(el('span', 'count-bad count-' + c[0], c[1] + ' ' + c[0])); }
    });
    block.appendChild(head);
    var strip = el('div', 'strip');
    strip.setAttribute('role', 'list');
    job.cells.forEach(function (slot) { strip.appendChild(slotCell(job, slot)); });
    block.appendChild(strip);
    return block;
  }

  function slotCell(job, slot) {
    var button = el('button', 'cell kind-' + slot.kind);
    button.type = 'button';
    button.setAttribute('role', 'listitem');
    button.setAttribute('data-kind', slot.kind);
    button.setAttribute('data-slot', slot.slot);
    if (slot.count > 1) {
      button.classList.add('wide');
      button.textContent = '×' + slot.count;
    }
    var label = slot.kind + ' · slot ' + clockTime(slot.slot) + (slot.count > 1 ? ' (' + slot.count + ' slots)' : '')
      + (slot.instance ? ' · ' + slot.instance : '') + (slot.token !== null && slot.token !== undefined
        ? ' · token ' + slot.token : '');
    button.title = label;
    button.setAttribute('aria-label', label);
    button.addEventListener('click', function () { showSlot(job, slot); });
    return button;
  }

  function showSlot(job, slot) {
    $('details-title').textContent = 'Job “' + job.job + '” · ' + slot.kind;
    var list = $('details-list');
    list.replaceChildren();
    function row(name, value) {
      if (value === null || value === undefined || value === '') { return; }
      list.appendChild(el('dt', null, name));
      list.appendChild(el('dd', null, value));
    }
    row('Outcome', slot.kind);
    row(slot.count > 1 ? 'First slot' : 'Slot', dateTime(slot.slot));
    if (slot.count > 1) { row('Last slot', dateTime(slot.lastSlot)); row('Slots', slot.count); }
    if (slot.run) { row('Run', slot.run === 1 ? '1 (first run)' : slot.run + ' (re-run after a crash)'); }
    row('Instance', slot.instance);
    row('Owner', slot.owner);
    row('Fencing token', slot.token);
    row('Started', slot.startedAt ? dateTime(slot.startedAt) : null);
    row('Finished', slot.finishedAt ? dateTime(slot.finishedAt) : (slot.run ? 'not finished' : null));
    row('Took', slot.durationMillis !== null && slot.durationMillis !== undefined ? slot.durationMillis + ' ms' : null);
    row('Note', slot.note);
    row('Schedule', job.schedule);
    row('Policies', job.onCrash ? 'onCrash ' + job.onCrash + ', onMissed ' + job.onMissed : null);
    openDialog($('details'));
  }

  function renderEvents(events) {
    var list = $('events');
    var fragment = document.createDocumentFragment();
    events.items.forEach(function (event) {
      var item = el('li');
      item.setAttribute('data-kind', event.kind);
      var time = el('time', null, clockTime(event.at));
      time.setAttribute('datetime', event.at);
      item.appendChild(time);
      item.appendChild(el('span', 'ev ev-' + event.kind, event.kind));
      item.appendChild(el('span', 'message', event.message));
      if (event.count > 1) { item.appendChild(el('span', 'tag', '×' + event.count)); }
      fragment.appendChild(item);
    });
    list.replaceChildren(fragment);
    $('events-note').textContent = 'What this instance saw since it started, kept in memory: the latest '
      + events.capacity + ' events at most' + (events.dropped ? ' (' + events.dropped + ' older ones dropped)' : '')
      + '; lost on restart. Other instances keep their own. ' + (events.items.length ? '' : 'None so far.');
  }

  /* ---- live countdowns ---- */

  function tick() {
    if (!view.data) { return; }
    var gone = elapsed();
    var countdowns = document.querySelectorAll('.countdown[data-base]');
    for (var i = 0; i < countdowns.length; i++) {
      var node = countdowns[i];
      var base = parseFloat(node.getAttribute('data-base'));
      var up = node.getAttribute('data-direction') === 'up';
      var value = up ? base + gone : base - gone;
      var prefix = node.getAttribute('data-prefix') || '';
      node.textContent = prefix + duration(up ? value : Math.max(value, 0));
      if (!up && value <= 0 && node.classList.contains('expires')) {
        node.textContent = 'expired';
        node.parentNode.classList.add('gone');
      }
    }
    renderStatus();
  }

  /* ---- admin: forced release ---- */

  var pending = null;

  function confirmRelease(row) {
    pending = row;
    $('confirm-text').textContent = '“' + row.resource + '”, token ' + row.token + ', held by '
      + (row.instance || row.owner) + ' for ' + duration(row.heldMillis + elapsed()) + '.';
    openDialog($('confirm'));
  }

  function release() {
    var row = pending;
    closeDialog($('confirm'));
    if (!row) { return; }
    pending = null;
    var headers = { 'Content-Type': 'application/json', 'Accept': 'application/json' };
    if (config.csrfHeader && config.csrfToken) { headers[config.csrfHeader] = config.csrfToken; }
    fetch(config.base + '/api/locks/release', { method: 'POST', headers: headers, credentials: 'same-origin',
        body: JSON.stringify({ resource: row.resource, token: row.token }) })
      .then(function (response) {
        return response.text().then(function (body) {
          if (!response.ok) { throw new Error(problemText(response, body)); }
          toast('Released “' + row.resource + '” (token ' + row.token + '). Its holder learns at its next renewal.',
            false);
        });
      })
      .catch(function (error) { toast('Not released: ' + (error && error.message ? error.message : error), true); })
      .then(refresh);
  }

  function toast(message, bad) {
    var box = $('toast');
    box.textContent = message;
    box.classList.toggle('bad', !!bad);
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { box.hidden = true; }, 8000);
  }

  function openDialog(dialog) {
    if (typeof dialog.showModal === 'function') { if (!dialog.open) { dialog.showModal(); } }
    else { dialog.setAttribute('open', ''); }
  }

  function closeDialog(dialog) {
    if (typeof dialog.close === 'function') { if (dialog.open) { dialog.close(); } }
    else { dialog.removeAttribute('open'); }
  }

  /* ---- controls ---- */

  function wire() {
    var filterTimer = null;
    $('filter').addEventListener('input', function (event) {
      clearTimeout(filterTimer);
      var value = event.target.value;
      filterTimer = setTimeout(function () { query.q = value.trim(); query.offset = 0; refresh(); }, 250);
    });
    $('sort').addEventListener('change', function (event) {
      var parts = event.target.value.split(':');
      query.sort = parts[0];
      query.order = parts[1];
      query.offset = 0;
      refresh();
    });
    $('page-size').addEventListener('change', function (event) {
      query.limit = parseInt(event.target.value, 10) || 50;
      query.offset = 0;
      refresh();
    });
    $('prev').addEventListener('click', function () { query.offset = Math.max(0, query.offset - query.limit); refresh(); });
    $('next').addEventListener('click', function () { query.offset += query.limit; refresh(); });
    $('details-close').addEventListener('click', function () { closeDialog($('details')); });
    $('confirm-cancel').addEventListener('click', function () { pending = null; closeDialog($('confirm')); });
    $('confirm-release').addEventListener('click', release);
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.body.classList.toggle('admin', config.admin);
    wire();
    refresh();
    setInterval(tick, 250);
  });
}());
