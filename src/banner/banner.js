/*
 * compliance cookie banner (served by `compliance serve` at /sdk/v1/banner.js).
 *
 *   <script src="https://HOST/sdk/v1/banner.js" data-tenant="acme" data-key="pk_…" defer></script>
 *
 * Reads the tenant's cookie-banner configuration and published privacy policy from the API the script was loaded
 * from, shows the banner as configured unless the visitor already answered this revision of it, records the answer
 * as one consent per optional category (source web_banner, refusals included), remembers it in a first-party cookie
 * and tells the page:
 *   window.compliance.consent('analytics')   -> true | false (what is in effect now)
 *   window.compliance.status                 -> 'loading' | 'unanswered' | 'pending' | 'recorded' | 'failed' |
 *                                               'unavailable' (see docs/website.md); window.compliance.error: the last
 *                                               compliance:error detail, or null
 *   window.compliance.onChange(fn)           -> fn({ consent, revision }) now (if answered) and on every change
 *   window.compliance.show()                 -> opens the settings layer again (also: any element with
 *                                               data-consent-settings, e.g. a footer link "Cookie settings")
 *   document 'compliance:consent' event      -> detail { consent, revision, changed }
 *   document 'compliance:recorded' event     -> detail { ids: { category: consent id }, revision } once stored
 *   document 'compliance:error' event        -> detail { during, reason, message, httpStatus, retryAfter, status }
 * A refusal takes effect at once; a grant only once the server has stored it (consent must be demonstrable,
 * Art. 7(1) GDPR). A choice not yet stored is kept in localStorage and sent again: after Retry-After while the page
 * is open, when the page is hidden or left (keepalive), and on the next page load.
 * Optional content waits for consent:
 *   <script type="text/plain" data-consent-category="analytics" data-src="https://…/stats.js"></script>
 *   <script type="text/plain" data-consent-category="marketing">inline code</script>
 *   <iframe data-consent-category="marketing" data-src="https://…"></iframe>
 * No dependencies, no build step needed (the build only minifies it); ES2019, so every current browser runs it.
 */
(function () {
  'use strict';
  if (window.compliance && window.compliance.__banner) return;

  var script = document.currentScript || document.querySelector('script[data-tenant][src*="/banner.js"]') || null;
  if (!script) return;
  var base = new URL('.', script.src).href; // …/sdk/v1/
  var tenant = script.getAttribute('data-tenant') || 'default';
  var key = script.getAttribute('data-key');
  var COOKIE = 'compliance_consent_' + tenant.replace(/[^A-Za-z0-9_-]/g, '_');
  var MAX_AGE = 180 * 24 * 3600; // asks again after six months at the latest

  // ------------------------------------------------------------------ texts of the controls, by page language
  var UI = {
    de: {
      accept: 'Alle akzeptieren',
      decline: 'Alle ablehnen',
      settings: 'Einstellungen',
      save: 'Auswahl speichern',
      back: 'Zurück',
      privacy: 'Datenschutzerklärung',
      settingsTitle: 'Cookie-Einstellungen',
      required: 'immer aktiv',
    },
    en: {
      accept: 'Accept all',
      decline: 'Decline all',
      settings: 'Settings',
      save: 'Save selection',
      back: 'Back',
      privacy: 'Privacy policy',
      settingsTitle: 'Cookie settings',
      required: 'always on',
    },
  };
  var lang = (document.documentElement.getAttribute('lang') || 'de').toLowerCase();
  var t = UI[lang.split('-')[0]] || UI.en;

  // ------------------------------------------------------------------ state and the page-facing API
  var config = null;
  var policy = null;
  var state = null; // what is in effect: { consent: {category: boolean}, revision, user }
  var previous = null; // the visitor's answer to an earlier revision: preselects the settings, applies nothing
  var listeners = [];
  var status = 'loading';
  var lastError = null;

  function readCookie() {
    var m = document.cookie.match(new RegExp('(?:^|; )' + COOKIE + '=([^;]*)'));
    if (!m) return null;
    try {
      var v = JSON.parse(decodeURIComponent(m[1]));
      return v && typeof v.c === 'object' && typeof v.r === 'string' ? v : null;
    } catch {
      return null;
    }
  }

  function writeCookie(v) {
    document.cookie =
      COOKIE +
      '=' +
      encodeURIComponent(JSON.stringify(v)) +
      '; Max-Age=' +
      MAX_AGE +
      '; Path=/; SameSite=Lax' +
      (location.protocol === 'https:' ? '; Secure' : '');
  }

  function newVisitorId() {
    if (window.crypto && crypto.randomUUID) return 'v-' + crypto.randomUUID();
    var a = new Uint8Array(16);
    crypto.getRandomValues(a);
    return 'v-' + Array.prototype.map.call(a, (b) => (b + 256).toString(16).slice(1)).join('');
  }

  var api = {
    __banner: true,
    consent: function (category) {
      return !!(state && state.consent[category]);
    },
    onChange: function (fn) {
      listeners.push(fn);
      if (state) fn({ consent: Object.assign({}, state.consent), revision: state.revision });
      return function () {
        listeners = listeners.filter((f) => f !== fn);
      };
    },
    show: function () {
      if (config) render(true);
    },
  };
  Object.defineProperty(api, 'status', { enumerable: true, get: () => status });
  Object.defineProperty(api, 'error', { enumerable: true, get: () => lastError && Object.assign({}, lastError) });
  window.compliance = api;

  /** Whether `consent` says the same as what is in effect. */
  function inEffect(consent) {
    return !!state && Object.keys(consent).every((k) => !!state.consent[k] === !!consent[k]);
  }

  function apply(consent, revision, user, changed) {
    state = { consent: consent, revision: revision, user: user };
    activateBlocked();
    var detail = { consent: Object.assign({}, consent), revision: revision, changed: changed };
    listeners.forEach((fn) => {
      try {
        fn(detail);
      } catch (e) {
        setTimeout(() => {
          throw e;
        });
      }
    });
    document.dispatchEvent(new CustomEvent('compliance:consent', { detail: detail }));
  }

  /** Turns `type="text/plain" data-consent-category` scripts (and `data-src` iframes) of consented categories on. */
  function activateBlocked() {
    var nodes = document.querySelectorAll('[data-consent-category]:not([data-consent-active])');
    Array.prototype.forEach.call(nodes, (el) => {
      if (!api.consent(el.getAttribute('data-consent-category'))) return;
      el.setAttribute('data-consent-active', '');
      if (el.tagName === 'SCRIPT') {
        var s = document.createElement('script');
        Array.prototype.forEach.call(el.attributes, (a) => {
          if (!/^(type|data-src|data-type)$/.test(a.name)) s.setAttribute(a.name, a.value);
        });
        s.type = el.getAttribute('data-type') || 'text/javascript';
        if (el.hasAttribute('data-src')) s.src = el.getAttribute('data-src');
        else s.text = el.text;
        el.parentNode.replaceChild(s, el);
      } else if (el.hasAttribute('data-src')) el.setAttribute('src', el.getAttribute('data-src'));
    });
  }

  /** Tells the page (a compliance:error event, window.compliance.error) and the console what went wrong. */
  function reportError(during, e, after) {
    status = after;
    lastError = {
      during: during,
      reason: e.code,
      message: e.message,
      httpStatus: e.status,
      retryAfter: e.retryAfter,
      status: after,
    };
    var what = during === 'configuration' ? 'configuration not available' : 'the choice could not be recorded';
    console.warn('compliance banner: ' + what + ': ' + e.message);
    document.dispatchEvent(new CustomEvent('compliance:error', { detail: Object.assign({}, lastError) }));
  }

  // ------------------------------------------------------------------ the API
  function failure(code, message, status, retryAfter) {
    return Object.assign(new Error(message), { code: code, status: status, retryAfter: retryAfter });
  }

  /**
   * One request to the API. A refusal rejects with an Error whose `code` is the server's (`rate_limited`,
   * `forbidden`, …) or `network` when there is no answer the page may read, `status` the HTTP status (0 without
   * one) and `retryAfter` the seconds of Retry-After (or null). `keepalive` lets the request outlive the page.
   */
  function call(method, path, body, keepalive) {
    var headers = { 'X-Tenant-ID': tenant, 'Content-Type': 'application/json' };
    if (key) headers.Authorization = 'Bearer ' + key;
    return fetch(base + path, {
      method: method,
      headers: headers,
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
      mode: 'cors',
      keepalive: !!keepalive,
    }).then(
      (res) =>
        res
          .json()
          .catch(() => ({}))
          .then((json) => {
            if (res.ok) return json;
            var wait = parseInt(res.headers.get('Retry-After'), 10);
            throw failure(
              json.code || 'http_' + res.status,
              json.error || 'HTTP ' + res.status,
              res.status,
              wait >= 0 ? wait : null,
            );
          }),
      (e) => {
        // a browser hides why: the server is down or offline, or it did not allow this page's origin (CORS)
        throw failure(
          'network',
          'no answer from ' +
            base +
            ' (' +
            e.message +
            '): the server cannot be reached, or it does not allow this page’s origin ' +
            location.origin +
            ' (a usable publishable key must list it)',
          0,
          null,
        );
      },
    );
  }

  // ------------------------------------------------------------------ recording, and a choice not recorded yet
  var PENDING = 'compliance_pending_' + tenant.replace(/[^A-Za-z0-9_-]/g, '_');
  var held = null; // the pending choice, also when localStorage cannot keep it (then for this page only)
  var sending = false;
  var again = false;
  var retries = 0; // in this page, after a failure that a retry may mend
  var timer = null;

  /**
   * The choice the server has not stored yet, or null: { r: revision, c: consent, u: visitor, t: chosen at,
   * p: the privacy policy shown, cats: the optional categories, ids: {category: consent id} of those stored }.
   */
  function loadPending() {
    try {
      var v = JSON.parse(localStorage.getItem(PENDING));
      var usable = v && typeof v.c === 'object' && typeof v.r === 'string' && Array.isArray(v.cats);
      held = usable && v.t > Date.now() - MAX_AGE * 1000 ? Object.assign(v, { ids: v.ids || {} }) : null;
    } catch {
      // no storage: what this page holds
    }
    return held;
  }

  function savePending(p) {
    held = p;
    try {
      if (p) localStorage.setItem(PENDING, JSON.stringify(p));
      else localStorage.removeItem(PENDING);
    } catch {
      // no storage: kept for this page only
    }
  }

  function consentBody(p, category) {
    var body = {
      user_id: p.u,
      data_point_id: 'cookies:' + category,
      granted: !!p.c[category],
      consent_version: p.r,
      // the server records when, through which channel (web_banner) and the browser's User-Agent itself
      banner_revision: p.r,
    };
    if (p.p) {
      body.policy_version_id = p.p.version_id;
      body.policy_content_hash = p.p.content_hash;
    }
    return body;
  }

  /**
   * Sends the pending choice: one consent per optional category not stored yet (a retry repeats none that was).
   * `leaving`: the page is being hidden or left. Every request is `keepalive`, so it outlives the page.
   */
  function send(leaving) {
    if (sending) {
      again = again || !leaving;
      return;
    }
    var p = config && loadPending(); // before the configuration, the start of the page sends it
    if (!p || (leaving && status === 'failed')) return;
    clearTimeout(timer);
    sending = true;
    var refused = null;
    Promise.all(
      p.cats
        .filter((c) => !(c in p.ids))
        .map((c) =>
          call('POST', 'einwilligungen/consents', consentBody(p, c), true).then(
            (r) => {
              p.ids[c] = r.id;
            },
            (e) => {
              refused = refused || e;
            },
          ),
        ),
    ).then(() => {
      sending = false;
      var latest = loadPending();
      // unless a newer choice (here or in another tab) replaced it meanwhile
      if (latest && latest.t === p.t) {
        if (refused) notRecorded(p, refused);
        else recorded(p);
      }
      if (again) {
        again = false;
        send(false);
      }
    });
  }

  function recorded(p) {
    savePending(null);
    retries = 0;
    // an answer to an earlier revision is stored, and the current one still waits for its answer
    status = p.r === config.revision ? 'recorded' : 'unanswered';
    lastError = null;
    if (p.r === config.revision) {
      writeCookie({ r: p.r, c: p.c, u: p.u, t: p.t });
      if (!inEffect(p.c)) apply(p.c, p.r, p.u, true);
    }
    document.dispatchEvent(
      new CustomEvent('compliance:recorded', { detail: { ids: Object.assign({}, p.ids), revision: p.r } }),
    );
  }

  /** Keeps the choice (with the consents already stored) to send again; soon, when the server may take it then. */
  function notRecorded(p, e) {
    savePending(p);
    var later = !e.status || e.status === 408 || e.status === 429 || e.status >= 500;
    reportError('recording', e, later ? 'pending' : 'failed');
    var wait = e.retryAfter || 2 << retries; // 2, 4, 8 s without Retry-After
    if (later && retries < 3 && wait <= 60) {
      retries++;
      timer = setTimeout(() => send(false), wait * 1000);
    }
  }

  /**
   * The visitor's answer. A refusal takes effect at once, a grant once the server has stored it: until then the
   * page gets the narrower of the choice in effect and the new one, and the cookie remembers that.
   */
  function choose(consent, byKeyboard) {
    config.categories.forEach((c) => {
      if (c.isRequired) consent[c.id] = true;
      else consent[c.id] = !!consent[c.id];
    });
    var user = (state && state.user) || (previous && previous.u) || newVisitorId();
    var before = state && state.revision === config.revision ? state.consent : {};
    var now = {};
    var grants = false;
    config.categories.forEach((c) => {
      now[c.id] = consent[c.id] && (c.isRequired || !!before[c.id]);
      if (consent[c.id] && !now[c.id]) grants = true;
    });
    var at = Date.now();
    savePending({
      r: config.revision,
      c: consent,
      u: user,
      t: at,
      p: policy && { version_id: policy.version_id, content_hash: policy.content_hash },
      cats: config.categories.filter((c) => !c.isRequired).map((c) => c.id),
      ids: {},
    });
    retries = 0;
    status = 'pending';
    writeCookie({ r: config.revision, c: now, u: user, t: at });
    close(byKeyboard);
    if (state ? !inEffect(now) : !grants) apply(now, config.revision, user, true);
    send(false);
  }

  // ------------------------------------------------------------------ colours (WCAG 2.1 contrast)
  function rgb(hex) {
    var h = hex.replace('#', '');
    if (h.length === 3) h = h.replace(/./g, '$&$&');
    return [0, 2, 4].map((i) => parseInt(h.substr(i, 2), 16));
  }
  function luminance(hex) {
    var c = rgb(hex).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function contrast(a, b) {
    var x = luminance(a),
      y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  /** The text colour that reads best on `bg`: white or near-black. */
  function onColour(bg) {
    return contrast(bg, '#ffffff') >= contrast(bg, '#111827') ? '#ffffff' : '#111827';
  }
  /** `colour` itself when it reads on white (4.5:1), else the page's dark text colour. */
  function onWhite(colour) {
    return contrast(colour, '#ffffff') >= 4.5 ? colour : '#111827';
  }

  // ------------------------------------------------------------------ rendering, into a shadow root
  var host = null;
  var root = null;
  var lastFocus = null;

  function css(primary) {
    var fg = onColour(primary);
    var accent = onWhite(primary);
    return (
      ':host{all:initial}' +
      '*{box-sizing:border-box}' +
      '.wrap{position:fixed;z-index:2147483000;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827}' +
      '.panel{background:#fff;color:#111827;box-shadow:0 4px 24px rgba(0,0,0,.25);padding:20px 24px;max-height:90vh;overflow:auto}' +
      '.bar{left:0;right:0}.bar.bottom{bottom:0}.bar.top{top:0}' +
      '.bar .panel{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center}.bar .text{flex:1 1 420px}' +
      '.box{width:min(420px,calc(100vw - 32px))}.box .panel{border-radius:10px}' +
      '.box.bottom-right{right:16px;bottom:16px}.box.bottom-left{left:16px;bottom:16px}' +
      '.box.bottom{left:50%;bottom:16px;transform:translateX(-50%)}.box.top{left:50%;top:16px;transform:translateX(-50%)}' +
      '.box.center{left:50%;top:50%;transform:translate(-50%,-50%)}' +
      '.modal{inset:0;display:flex;align-items:center;justify-content:center;background:rgba(17,24,39,.6)}' +
      '.modal .panel{width:min(560px,calc(100vw - 32px));border-radius:10px}' +
      'h2{font-size:1.15em;margin:0 0 6px;line-height:1.3}p{margin:0 0 8px}' +
      'a{color:' +
      accent +
      ';text-decoration:underline}' +
      '.buttons{display:flex;flex-wrap:wrap;gap:8px}' +
      'button{font:inherit;font-weight:600;cursor:pointer;border-radius:6px;padding:9px 16px;min-height:44px;' +
      'border:2px solid ' +
      accent +
      '}' +
      '.primary{background:' +
      primary +
      ';color:' +
      fg +
      ';border-color:' +
      primary +
      '}' +
      '.secondary{background:#fff;color:#111827}' +
      'button:focus-visible,a:focus-visible,input:focus-visible,.panel:focus-visible{outline:3px solid #111827;outline-offset:2px;box-shadow:0 0 0 5px #fff}' +
      '.cats{list-style:none;margin:8px 0 12px;padding:0}.cats li{padding:6px 0;border-top:1px solid #e5e7eb}' +
      '.cats label{display:flex;gap:10px;align-items:center;cursor:pointer}' +
      '.cats input{width:20px;height:20px;accent-color:' +
      accent +
      '}' +
      '.req{color:#4b5563;font-size:.9em}' +
      '@media (prefers-reduced-motion:no-preference){.panel{animation:in .15s ease-out}@keyframes in{from{opacity:0}}}'
    );
  }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach((k) => {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'on') e.addEventListener('click', attrs[k]);
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach((c) => c && e.appendChild(c));
    return e;
  }

  /** The entry of a by-language map for the page's language (`de-AT`, else `de`), or undefined. */
  function inLanguage(map) {
    if (!map) return undefined;
    var keys = Object.keys(map);
    var hit = keys.find((k) => k.toLowerCase() === lang) || keys.find((k) => k.toLowerCase() === lang.split('-')[0]);
    return hit === undefined ? undefined : map[hit];
  }

  function placement(style, position) {
    if (style === 'modal') return 'modal';
    if (style === 'bar') return 'bar ' + (position === 'top' ? 'top' : 'bottom');
    return 'box ' + position;
  }

  /** The page's first control in the tab order, to continue from where the banner (first in that order) was. */
  function firstInPage() {
    var all = document.body.querySelectorAll(
      'a[href],area[href],button,input,select,textarea,iframe,summary,[tabindex],[contenteditable]',
    );
    return Array.prototype.find.call(
      all,
      (e) =>
        e !== host &&
        !e.disabled &&
        e.tabIndex >= 0 &&
        e.type !== 'hidden' &&
        e.getClientRects().length > 0 &&
        getComputedStyle(e).visibility !== 'hidden',
    );
  }

  /**
   * Removes the banner and returns the focus to the element that opened it. A banner that opened by itself was
   * opened from nowhere: after a choice made by keyboard (or a screen reader) the focus goes on to the page's first
   * control, where the next Tab would have gone; after a mouse click it stays where the click left it.
   */
  function close(byKeyboard) {
    var opener = lastFocus;
    if (host) host.remove();
    host = root = null;
    lastFocus = null;
    document.removeEventListener('keydown', onKey, true);
    if (opener && opener !== document.body && opener.focus && document.contains(opener)) opener.focus();
    else if (byKeyboard) {
      var next = firstInPage();
      if (next) next.focus();
    }
  }

  function focusables() {
    return Array.prototype.slice.call(root.querySelectorAll('button:not([disabled]),a[href],input:not([disabled])'));
  }

  function onKey(e) {
    if (!root) return;
    var settings = root.querySelector('[data-layer="settings"]');
    if (e.key === 'Escape' && settings) {
      e.preventDefault();
      render(false, true);
      return;
    }
    if (e.key === 'Tab' && config.config.style === 'modal') {
      // the focus stays inside the modal dialog
      var f = focusables();
      var active = root.activeElement;
      var i = f.indexOf(active);
      if (e.shiftKey && (i <= 0 || i === -1)) {
        e.preventDefault();
        f[f.length - 1].focus();
      } else if (!e.shiftKey && (i === f.length - 1 || i === -1)) {
        e.preventDefault();
        f[0].focus();
      }
    }
  }

  /** Shows the first layer, or the settings layer (`settings`); `fromSettings` returns focus to its button. */
  function render(settings, fromSettings) {
    var c = config.config;
    var texts = Object.assign({}, c.banner_texts, inLanguage(c.banner_texts.translations));
    var style = c.style;
    if (!host) {
      lastFocus = document.activeElement;
      host = el('div', { id: 'compliance-banner', 'data-style': style });
      root = host.attachShadow({ mode: 'open' });
      // first in the page, so Tab reaches the banner before the content it is about
      document.body.insertBefore(host, document.body.firstChild);
      document.addEventListener('keydown', onKey, true);
    }
    root.innerHTML = '';
    root.appendChild(el('style', { text: css(c.primaryColor) }));
    // preselected: the latest choice (also one the server has not stored yet), else an earlier revision's answer
    var stored = held && held.r === config.revision ? held.c : state ? state.consent : previous ? previous.c : {};
    // a site path or an http(s) address only: never a javascript: or data: URL from the configuration
    var privacyHref = texts.privacyLink || '';
    if (/^\s*[a-z][a-z0-9+.-]*:/i.test(privacyHref) && !/^\s*https?:/i.test(privacyHref)) privacyHref = '';
    var link = privacyHref ? el('a', { href: privacyHref, text: t.privacy }) : null;
    var body;
    // both layers offer declining all, when the configuration asks for it
    var declineButton = () =>
      c.showDeclineAll
        ? el('button', { type: 'button', class: 'primary', 'data-action': 'decline', text: t.decline, on: declineAll })
        : null;
    if (!settings) {
      body = [
        el('div', { class: 'text' }, [
          el('h2', { id: 'cmp-title', text: texts.title }),
          el('p', { id: 'cmp-desc', text: texts.description + ' ' }, [link]),
        ]),
        el('div', { class: 'buttons' }, [
          el('button', { type: 'button', class: 'primary', 'data-action': 'accept', text: t.accept, on: acceptAll }),
          declineButton(),
          c.showSettings
            ? el('button', {
                type: 'button',
                class: 'secondary',
                'data-action': 'settings',
                'aria-haspopup': 'true',
                text: t.settings,
                on: () => render(true),
              })
            : null,
        ]),
      ];
    } else {
      var list = el(
        'ul',
        { class: 'cats' },
        config.categories.map((cat) => {
          var box = el('input', { type: 'checkbox', id: 'cmp-cat-' + cat.id, 'data-category': cat.id });
          box.checked = cat.isRequired || (cat.id in stored ? !!stored[cat.id] : !!cat.defaultEnabled);
          if (cat.isRequired) box.disabled = true;
          return el('li', {}, [
            el('label', { for: 'cmp-cat-' + cat.id }, [
              box,
              el('span', { text: inLanguage(cat.names) || cat.name }),
              cat.isRequired ? el('span', { class: 'req', text: '(' + t.required + ')' }) : null,
            ]),
          ]);
        }),
      );
      body = [
        el('div', { class: 'text', 'data-layer': 'settings' }, [
          el('h2', { id: 'cmp-title', text: t.settingsTitle }),
          el('p', { id: 'cmp-desc', text: texts.description + ' ' }, [link]),
          list,
        ]),
        el('div', { class: 'buttons' }, [
          el('button', { type: 'button', class: 'primary', 'data-action': 'save', text: t.save, on: saveSelection }),
          el('button', { type: 'button', class: 'primary', 'data-action': 'accept', text: t.accept, on: acceptAll }),
          declineButton(),
          el('button', {
            type: 'button',
            class: 'secondary',
            'data-action': 'back',
            text: t.back,
            on: () => render(false, true),
          }),
        ]),
      ];
    }
    var panel = el(
      'div',
      {
        class: 'panel',
        role: 'dialog',
        'aria-modal': style === 'modal' ? 'true' : 'false',
        'aria-labelledby': 'cmp-title',
        'aria-describedby': 'cmp-desc',
        tabindex: '-1',
        lang: lang,
      },
      body,
    );
    root.appendChild(el('div', { class: 'wrap ' + placement(style, c.position) }, [panel]));
    // a modal takes the focus; so does a layer the visitor opened; a bar or box waits in the tab order
    if (settings) root.querySelector('input:not([disabled]),button').focus();
    else if (fromSettings && root.querySelector('[data-action="settings"]'))
      root.querySelector('[data-action="settings"]').focus();
    else if (style === 'modal') root.querySelector('button').focus();
  }

  // a click from the keyboard or a screen reader has no pointer position: detail 0
  function acceptAll(e) {
    var consent = {};
    config.categories.forEach((c) => (consent[c.id] = true));
    choose(consent, e.detail === 0);
  }
  function declineAll(e) {
    choose({}, e.detail === 0);
  }
  function saveSelection(e) {
    var consent = {};
    Array.prototype.forEach.call(root.querySelectorAll('input[data-category]'), (i) => {
      consent[i.getAttribute('data-category')] = i.checked;
    });
    choose(consent, e.detail === 0);
  }

  // ------------------------------------------------------------------ start
  document.addEventListener('click', (e) => {
    var target = e.target && e.target.closest && e.target.closest('[data-consent-settings]');
    if (target && config) {
      e.preventDefault();
      render(true);
    }
  });

  var saved = readCookie();
  var waiting = loadPending();
  var policyPath = 'legal-documents/published?document_type=privacy_policy&language=' + encodeURIComponent(lang);
  Promise.all([
    call('GET', 'einwilligungen/cookies'),
    call('GET', policyPath).catch((e) => {
      if (e.status === 404) return null; // no privacy policy published: consents record none
      throw e;
    }),
  ]).then(
    (r) => {
      config = r[0];
      policy = r[1];
      var current = saved && saved.r === config.revision;
      // the cookie holds what is in effect: a grant not yet recorded is not in it
      if (current) apply(saved.c, saved.r, saved.u, false);
      status = waiting ? 'pending' : current ? 'recorded' : 'unanswered';
      if (!current && !(waiting && waiting.r === config.revision)) {
        // asks again, preselecting the last answer
        previous = waiting && (!saved || waiting.t >= saved.t) ? waiting : saved;
        var start = () => render(false);
        if (document.body) start();
        else document.addEventListener('DOMContentLoaded', start);
      }
      // a choice the server did not store on an earlier page goes again now
      if (waiting) send(false);
    },
    (e) => {
      // the API cannot be reached or refuses this page: keep a choice made before, but show nothing and load
      // nothing new
      reportError('configuration', e, 'unavailable');
      if (saved) apply(saved.c, saved.r, saved.u, false);
    },
  );

  // what is still not recorded goes with the page when it is hidden or left (keepalive requests outlive it)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send(true);
  });
  window.addEventListener('pagehide', () => send(true));
})();
