// Starts dynalite exactly as its cli.js does, but survives clients that go away mid-request.
// dynalite throws from a request's 'error' handler when a client disconnects mid-request (ECONNRESET, "aborted"),
// which ends the whole process; a test server being stopped while its indexer polls is such a client, and every
// later test of the run would then find no DynamoDB.
process.on('uncaughtException', function (err) {
  if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
    console.error('dynalite: a client went away mid-request (' + err.message + '); still serving');
    return;
  }
  console.error(err);
  process.exit(1);
});
require('dynalite/cli.js');
