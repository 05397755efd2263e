#!/usr/bin/env python3
"""Builds Cairn's labelled secret corpus (shared-model/src/test/resources/dev/cairn/model/secret/corpus.tsv).

Each line: label (1 = the line holds a secret, 0 = clean) TAB the text (\\n for line breaks). Secrets follow the
formats vendors document (prefixes, lengths, alphabets) with fresh random bodies; clean lines are the tricky kind:
vendor prefixes with placeholders, hashes, UUIDs, digests, public keys, talk about passwords, code that reads
secrets from the environment. Deterministic (fixed seed): rerun after changing it and commit the output.
"""
import random, string
R = random.Random(7)
AN = string.ascii_letters + string.digits
HEX = '0123456789abcdef'
def rs(c, n): return ''.join(R.choice(c) for _ in range(n))
def uuid(): return '%s-%s-%s-%s-%s' % (rs(HEX,8), rs(HEX,4), rs(HEX,4), rs(HEX,4), rs(HEX,12))

secret_makers = [
    lambda: 'ghp_' + rs(AN, 36), lambda: 'github_pat_' + rs(AN, 22) + '_' + rs(AN, 59), lambda: 'glpat-' + rs(AN, 20),
    lambda: 'xoxb-' + rs(string.digits, 12) + '-' + rs(string.digits, 13) + '-' + rs(AN, 24),
    lambda: 'AKIA' + rs('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16), lambda: 'AIza' + rs(AN + '_-', 35),
    lambda: 'sk_live_' + rs(AN, 24), lambda: 'rk_live_' + rs(AN, 24), lambda: 'whsec_' + rs(AN, 32),
    lambda: 'sk-proj-' + rs(AN + '_-', 120), lambda: 'sk-ant-api03-' + rs(AN + '_-', 95), lambda: 'hf_' + rs(AN, 34),
    lambda: 'npm_' + rs(AN, 36), lambda: 'pypi-AgEIcHlwaS5vcmc' + rs(AN, 60), lambda: 'dckr_pat_' + rs(AN, 27),
    lambda: 'SG.' + rs(AN, 22) + '.' + rs(AN, 43), lambda: 'gsk_' + rs(AN, 52), lambda: 'dop_v1_' + rs(HEX, 64),
    lambda: 'NRAK-' + rs(string.ascii_uppercase + string.digits, 27), lambda: 'glsa_' + rs(AN, 41),
    lambda: 'shpat_' + rs(HEX, 32), lambda: 'hvs.' + rs(AN, 30), lambda: 'sbp_' + rs(HEX, 40),
    lambda: 'pul-' + rs(HEX, 40), lambda: 'lin_api_' + rs(AN, 40), lambda: 'GOCSPX-' + rs(AN, 28),
    lambda: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiI' + rs(AN, 30) + '.' + rs(AN + '_-', 86),
]
contexts = ['export TOKEN={}', 'here is the key: {}', 'use {} for the deploy', 'config: {{"apiKey": "{}"}}',
            '我的令牌 {} 请保存', 'Authorization: Bearer {}', '- env: KEY={}', 'curl -H "x-api-key: {}" https://api.acme.dev']
prose_pw = ['my password is {}', 'the root password for db-01 is {}', 'wifi password: {}', '密码是{}',
            '服务器密码：{}', 'Das Passwort ist {}', 'パスワードは{}です', 'le mot de passe est {}',
            'la contraseña es {}', 'pw is {} btw']
conn = ['postgresql://app:{}@db.internal:5432/crm', 'mongodb+srv://svc:{}@cluster0.mongodb.net/app',
        'redis://:{}@cache:6379/0', 'amqp://guest2:{}@mq.internal:5672/', 'mysql://root:{}@10.0.0.7/shop',
        'jdbc:postgresql://db/crm?user=app&password={}', 'Server=db;Database=crm;User ID=app;Password={};',
        'machine api.acme.dev login ci password {}', 'sshpass -p {} ssh deploy@10.0.0.5',
        'mysql -u root -p{} shop', 'curl -u admin:{} https://jenkins.acme.dev', 'PGPASSWORD={} psql -h db',
        'docker login -u ci -p {} registry.acme.dev', 'https://deploy:{}@git.acme.dev/core.git']
assign = ['DB_PASSWORD={}', 'password = "{}"', 'client_secret: {}', 'SIGNING_SECRET={}', 'api_key = "{}"']

def pw(): return R.choice([rs(AN, 10), rs(AN, 12) + '!', 'Summer' + rs(string.digits, 4) + '#', rs(AN, 16)])

pos = []
for _ in range(260):
    pos.append(R.choice(contexts).format(R.choice(secret_makers)()))
for _ in range(90):
    pos.append(R.choice(prose_pw).format(pw()))
for _ in range(110):
    pos.append(R.choice(conn).format(pw()))
for _ in range(60):
    pos.append(R.choice(assign).format(rs(AN, 24)))
body = '\\n'.join(rs(AN + '+/', 64) for _ in range(5))
for hdr in ['RSA PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY']:
    for _ in range(5):
        b = '\\n'.join(rs(AN + '+/', 64) for _ in range(5))
        pos.append('-----BEGIN ' + hdr + '-----\\n' + b + '\\n-----END ' + hdr + '-----')

neg = []
placeholders = ['ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'AKIAIOSFODNN7EXAMPLE', 'sk_live_...', '<your-api-key>',
                '${API_TOKEN}', 'YOUR_TOKEN_HERE', 'sk-ant-api03-XXXXXXXX', '****************', '{{ secrets.NPM_TOKEN }}',
                '$GITHUB_TOKEN', 'changeme-in-production-xxxx', 'xoxb-your-bot-token']
clean = [
    lambda: 'commit ' + rs(HEX, 40) + ' fixes the flaky test', lambda: 'sha256:' + rs(HEX, 64),
    lambda: 'request ' + uuid() + ' took 32 ms', lambda: 'image digest sha256:' + rs(HEX, 64),
    lambda: '"integrity": "sha512-' + rs(AN + '+/', 86) + '=="',
    lambda: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI' + rs(AN, 43) + ' alice@laptop',
    lambda: 'the password is incorrect, please try again', lambda: 'password is required for this step',
    lambda: 'reset your password at https://acme.dev/reset', lambda: 'token_count = ' + str(R.randint(10, 99999)),
    lambda: 'max_tokens: ' + str(R.randint(100, 8000)), lambda: 'SECRET_KEY = os.environ["SECRET_KEY"]',
    lambda: 'password = getpass.getpass()', lambda: 'const apiKey = process.env.OPENAI_API_KEY;',
    lambda: '    password = os.environ["DB_PASSWORD"]', lambda: 'token = request.headers["Authorization"]',
    lambda: 'db_password: settings.DATABASES["default"]["PASSWORD"]',
    lambda: 'see https://github.com/acme/repo/commit/' + rs(HEX, 40),
    lambda: 'postgresql://app@db.internal:5432/crm', lambda: 'redis://cache:6379/0',
    lambda: 'git clone https://github.com/acme/core.git', lambda: 'ETag: "' + rs(HEX, 32) + '"',
    lambda: 'order id ' + rs(string.digits, 12) + ' shipped', lambda: 'the build id is ' + rs(AN, 12),
    lambda: '密码长度至少 12 位', lambda: '请在设置里修改密码', lambda: 'Das Passwort muss 12 Zeichen haben',
    lambda: 'we rotate the api key every 90 days', lambda: 'Use a password manager like 1Password',
    lambda: 'api_key = ' + R.choice(placeholders), lambda: 'GITHUB_TOKEN=' + R.choice(placeholders),
    lambda: 'token: ' + R.choice(placeholders), lambda: 'password: ' + R.choice(placeholders),
    lambda: 'curl -H "Authorization: Bearer $TOKEN" https://api.acme.dev',
    lambda: 'docker login -u ci --password-stdin ghcr.io', lambda: 'mysql -u root -p shop',
    lambda: 'export DB_PASSWORD=$(vault kv get -field=password secret/db)',
    lambda: 'version ' + '.'.join(str(R.randint(0, 20)) for _ in range(3)) + ' released',
    lambda: 'base64 image data:image/png;base64,iVBORw0KGgo' + rs(AN, 60),
    lambda: 'UUID v4: ' + uuid(), lambda: 'Bearer tokens expire after 1 hour',
    lambda: 'the secret ingredient is love', lambda: 'key = cache_key(user_id, "profile")',
    lambda: 'sk_live_ keys must never be committed', lambda: 'AWS keys start with AKIA',
    lambda: '-----BEGIN PUBLIC KEY-----\\n' + rs(AN, 64) + '\\n-----END PUBLIC KEY-----',
    lambda: 'We use PostgreSQL 16 for every new service', lambda: 'Alice prefers dark mode and vim keybindings',
    lambda: 'The CI pipeline runs on GitHub Actions', lambda: 'pip install requests==2.32.3',
    lambda: 'npm i @scope/pkg@^4.2.0', lambda: 'https://example.com/search?q=password+reset&page=2',
    lambda: 'token bucket refills at 10 tokens per second', lambda: 'auth: none',
]
for _ in range(1000):
    neg.append(R.choice(clean)())

out = ['%d\t%s' % (1, p) for p in pos] + ['%d\t%s' % (0, n) for n in neg]
R.shuffle(out)
path = 'shared-model/src/test/resources/dev/cairn/model/secret/corpus.tsv'
open(path, 'w').write('# label<TAB>text; made by tools/make_secret_corpus.py\n' + '\n'.join(out) + '\n')
print(len(pos), 'secrets,', len(neg), 'clean lines ->', path)
