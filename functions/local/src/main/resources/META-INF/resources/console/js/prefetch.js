// Starts the first page's list call as soon as the document is parsed, while the stylesheet and the modules are still
// being fetched and compiled (ConsoleBench: they took most of the first page's time). Only when already signed in and
// opening the Memories page; api.js's call() takes the response over when it asks for the same URL. No imports, so it
// runs without waiting for any module; a classic script, so it also runs before app.js.
(() => {
  const token = sessionStorage.getItem('cairn.token');
  const team = sessionStorage.getItem('cairn.team');
  if (!token || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(team || '')) return;
  if (location.hash && !/^#\/memories$/.test(location.hash)) return;
  // the same query, in the same order, as the page's first load (memories.js), so the URLs compare equal
  const url = (sessionStorage.getItem('cairn.apiBase') || '') + '/v1/teams/' + team
    + '/memories?scope=all&order=recency&limit=50';
  window.cairnPrefetch = {
    url,
    token,
    response: fetch(url, {
      method: 'GET', headers: { Authorization: 'Bearer ' + token }, cache: 'no-store', credentials: 'omit',
      referrerPolicy: 'no-referrer',
    }),
  };
})();
