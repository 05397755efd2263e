package dev.cairn.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import java.util.zip.CRC32;

/**
 * A labelled secret corpus generated independently of the scanner's rules: this code never reads the rules file and
 * shares no pattern with it. Each credential is made from its provider's documented format (prefix, length,
 * alphabet, separators, checksum where there is one: the sources are the providers' token-format announcements and
 * API references, and the public rule sets of gitleaks and TruffleHog for the list of families), with a fresh random
 * body, and placed in the places memory text puts credentials: prose, JSON, YAML, env files, shell and curl command
 * lines, tool-call arguments, code, Chinese prose.
 *
 * <p>Two parts, made by different templates (other sentences, other keys, other surrounding text) and different seeds:
 * the development part, which rule work may look at, and the held-out part, which it must not. Clean lines are the hard
 * look-alikes: hashes, UUIDs, base64 of ordinary data, identifiers such as {@code resetPasswordToken}, code that
 * reads a secret from somewhere, documentation placeholders, the providers' own documented example values, public keys
 * and test fixtures; many are put in the very templates the secrets use, under the same names.
 */
final class SecretCorpus {

    enum Part {
        DEV,
        HELD_OUT
    }

    /** One labelled line: {@code kind} is the provider family for a secret, the look-alike family for a clean line. */
    record Sample(Part part, boolean secret, String kind, String context, String text) {}

    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final String HEX = "0123456789abcdef";
    private static final String HEX_UP = "0123456789ABCDEF";
    private static final String B62 = DIGITS + UPPER + LOWER;
    private static final String AN = UPPER + LOWER + DIGITS;
    private static final String URLSAFE = AN + "-_";
    private static final String B64 = AN + "+/";
    private static final String BASE32 = UPPER + "234567";
    private static final String LOWER_AN = LOWER + DIGITS;
    private static final String UPPER_AN = UPPER + DIGITS;

    /** How a provider's credential is named nearby (unprefixed kinds are found only by that name). */
    record Provider(String id, String label, boolean prefixed, Function<Random, String> make) {}

    private final Random random;

    private SecretCorpus(long seed) {
        this.random = new Random(seed);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // credential makers

    static String rs(Random r, String alphabet, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    /** A random string of length {@code min..max}. */
    static String rs(Random r, String alphabet, int min, int max) {
        return rs(r, alphabet, min + r.nextInt(max - min + 1));
    }

    static String uuid(Random r) {
        return rs(r, HEX, 8) + "-" + rs(r, HEX, 4) + "-4" + rs(r, HEX, 3) + "-" + rs(r, "89ab", 1) + rs(r, HEX, 3) + "-"
                + rs(r, HEX, 12);
    }

    static String digits(Random r, int n) {
        return rs(r, "123456789", 1) + rs(r, DIGITS, n - 1);
    }

    /**
     * GitHub's token format (github.blog, 2021-04-05, "Behind GitHub's new authentication token formats"): a prefix,
     * 30 base62 characters of entropy and their CRC32 in base62, left-padded with zeros to six characters.
     */
    static String githubToken(Random r, String prefix) {
        String entropy = rs(r, AN, 30);
        return prefix + entropy + base62Crc(entropy);
    }

    static String base62Crc(String s) {
        CRC32 crc = new CRC32();
        crc.update(s.getBytes(StandardCharsets.US_ASCII));
        long v = crc.getValue();
        StringBuilder b = new StringBuilder();
        while (v > 0) {
            b.append(B62.charAt((int) (v % 62)));
            v /= 62;
        }
        while (b.length() < 6) {
            b.append('0');
        }
        return b.reverse().toString();
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static String b64url(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static String b64bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    static String password(Random r) {
        String[] words = {
            "Harbor", "violet", "Quartz", "maple", "Falcon", "ember", "Nimbus", "cobalt", "Juniper", "onyx"
        };
        String[] symbols = {"!", "#", "$", "%", "&", "*", "@", "?", "+", "~"};
        return switch (r.nextInt(3)) {
            case 0 ->
                words[r.nextInt(words.length)]
                        + symbols[r.nextInt(symbols.length)]
                        + digits(r, 4)
                        + words[r.nextInt(words.length)].toLowerCase(Locale.ROOT);
            case 1 -> rs(r, AN + "!#%&*+-=?", 14, 20);
            default ->
                rs(r, UPPER, 1)
                        + rs(r, LOWER, 5)
                        + symbols[r.nextInt(symbols.length)]
                        + digits(r, 3)
                        + symbols[r.nextInt(symbols.length)]
                        + rs(r, AN, 3);
        };
    }

    static String pem(Random r, String type, int bytes) {
        String body = b64bytes(r, bytes);
        StringBuilder b = new StringBuilder("-----BEGIN " + type + "-----\n");
        for (int i = 0; i < body.length(); i += 64) {
            b.append(body, i, Math.min(body.length(), i + 64)).append('\n');
        }
        return b.append("-----END ").append(type).append("-----").toString();
    }

    static String jwt(Random r) {
        String header = b64url("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + rs(r, AN, 10) + "\"}");
        String payload = b64url("{\"sub\":\"" + uuid(r) + "\",\"iss\":\"https://auth." + rs(r, LOWER, 6)
                + ".com/\",\"exp\":" + (1_800_000_000L + r.nextInt(100_000_000)) + ",\"scope\":\"read write\"}");
        return header + "." + payload + "." + rs(r, URLSAFE, 86);
    }

    private static String host(Random r) {
        String[] hosts = {"db.internal", "10.0.3.17", "prod-cluster.abc123.us-east-1.rds.amazonaws.com", "pg.acme.io"};
        return hosts[r.nextInt(hosts.length)];
    }

    private static Provider p(String id, String label, Function<Random, String> make) {
        return new Provider(id, label, true, make);
    }

    /** A kind without a prefix of its own: only its name nearby tells what it is. */
    private static Provider u(String id, String label, Function<Random, String> make) {
        return new Provider(id, label, false, make);
    }

    /** Every provider family the corpus covers. */
    static List<Provider> providers() {
        List<Provider> l = new ArrayList<>();
        // source control
        l.add(p("github-classic-pat", "GitHub token", r -> githubToken(r, "ghp_")));
        l.add(p("github-oauth", "GitHub OAuth token", r -> githubToken(r, "gho_")));
        l.add(p("github-app-user", "GitHub app token", r -> githubToken(r, "ghu_")));
        l.add(p("github-app-installation", "GitHub installation token", r -> githubToken(r, "ghs_")));
        l.add(p("github-refresh", "GitHub refresh token", r -> githubToken(r, "ghr_")));
        l.add(p("github-fine-grained", "GitHub PAT", r -> "github_pat_11" + rs(r, UPPER_AN, 20) + "_" + rs(r, AN, 59)));
        l.add(p("gitlab-pat", "GitLab token", r -> "glpat-" + rs(r, URLSAFE, 20)));
        l.add(p(
                "gitlab-pat-routable",
                "GitLab token",
                r -> "glpat-" + rs(r, URLSAFE, 27, 30) + "." + rs(r, "0123", 2) + "." + rs(r, LOWER_AN, 9)));
        l.add(p("gitlab-pipeline-trigger", "GitLab trigger token", r -> "glptt-" + rs(r, HEX, 40)));
        l.add(p("gitlab-runner", "GitLab runner token", r -> "glrt-" + rs(r, URLSAFE, 20)));
        l.add(p("gitlab-runner-legacy", "runner registration token", r -> "GR1348941" + rs(r, URLSAFE, 20)));
        l.add(p("gitlab-deploy", "GitLab deploy token", r -> "gldt-" + rs(r, URLSAFE, 20)));
        l.add(p("gitlab-cicd-job", "GitLab job token", r -> "glcbt-" + rs(r, HEX, 2) + "_" + rs(r, URLSAFE, 20)));
        l.add(p("bitbucket-app-password", "Bitbucket app password", r -> "ATBB" + rs(r, AN, 32)));
        l.add(p(
                "atlassian-api-token",
                "Atlassian API token",
                r -> "ATATT3xFfGF0" + rs(r, URLSAFE, 170) + "=" + rs(r, HEX_UP, 8)));
        l.add(u("atlassian-api-token-legacy", "Jira API token", r -> rs(r, AN, 24)));
        // chat
        l.add(p(
                "slack-bot",
                "Slack bot token",
                r -> "xoxb-" + digits(r, 12) + "-" + digits(r, 13) + "-" + rs(r, AN, 24)));
        l.add(p(
                "slack-user",
                "Slack user token",
                r -> "xoxp-" + digits(r, 12) + "-" + digits(r, 12) + "-" + digits(r, 13) + "-" + rs(r, HEX, 32)));
        l.add(p(
                "slack-app-level",
                "Slack app token",
                r -> "xapp-1-A" + rs(r, UPPER_AN, 10) + "-" + digits(r, 13) + "-" + rs(r, HEX, 64)));
        l.add(p("slack-config-refresh", "Slack refresh token", r -> "xoxe-1-" + rs(r, AN, 146)));
        l.add(p(
                "slack-webhook",
                "Slack webhook",
                r -> "https://hooks.slack.com/services/T" + rs(r, UPPER_AN, 10) + "/B" + rs(r, UPPER_AN, 10) + "/"
                        + rs(r, AN, 24)));
        l.add(p(
                "discord-bot",
                "Discord bot token",
                r -> b64url(digits(r, 18)) + "." + rs(r, URLSAFE, 6) + "." + rs(r, URLSAFE, 38)));
        l.add(p(
                "discord-webhook",
                "Discord webhook",
                r -> "https://discord.com/api/webhooks/" + digits(r, 19) + "/" + rs(r, URLSAFE, 68)));
        l.add(p("telegram-bot", "Telegram bot token", r -> digits(r, 10) + ":AA" + rs(r, URLSAFE, 33)));
        l.add(p(
                "teams-webhook",
                "Teams webhook",
                r -> "https://acme.webhook.office.com/webhookb2/" + uuid(r) + "@" + uuid(r) + "/IncomingWebhook/"
                        + rs(r, HEX, 32) + "/" + uuid(r)));
        l.add(u("mattermost", "Mattermost access token", r -> rs(r, LOWER_AN, 26)));
        l.add(u("sendbird", "Sendbird API token", r -> rs(r, HEX, 40)));
        // messaging and mail
        l.add(p("twilio-api-key", "Twilio API key", r -> "SK" + rs(r, HEX, 32)));
        l.add(u("twilio-auth-token", "Twilio auth token", r -> rs(r, HEX, 32)));
        l.add(p("sendgrid", "SendGrid API key", r -> "SG." + rs(r, URLSAFE, 22) + "." + rs(r, URLSAFE, 43)));
        l.add(p("mailgun", "Mailgun API key", r -> "key-" + rs(r, HEX, 32)));
        l.add(p("mailchimp", "Mailchimp API key", r -> rs(r, HEX, 32) + "-us" + (1 + r.nextInt(20))));
        l.add(p("brevo", "Brevo API key", r -> "xkeysib-" + rs(r, HEX, 64) + "-" + rs(r, AN, 16)));
        l.add(u("postmark", "Postmark server token", r -> uuid(r)));
        l.add(u("messagebird", "MessageBird API key", r -> rs(r, AN, 25)));
        // payments
        l.add(p("stripe-live-secret", "Stripe secret key", r -> "sk_live_" + rs(r, AN, 24, 99)));
        l.add(p("stripe-restricted", "Stripe restricted key", r -> "rk_live_" + rs(r, AN, 24, 99)));
        l.add(p("stripe-webhook", "Stripe webhook secret", r -> "whsec_" + rs(r, AN, 32)));
        l.add(p("square-access", "Square access token", r -> "EAAA" + rs(r, URLSAFE, 60)));
        l.add(p("square-oauth-secret", "Square application secret", r -> "sq0csp-" + rs(r, URLSAFE, 43)));
        l.add(p("shopify-access", "Shopify access token", r -> "shpat_" + rs(r, HEX, 32)));
        l.add(p("shopify-shared-secret", "Shopify shared secret", r -> "shpss_" + rs(r, HEX, 32)));
        l.add(p("flutterwave", "Flutterwave secret key", r -> "FLWSECK-" + rs(r, HEX, 32) + "-X"));
        l.add(p("gocardless", "GoCardless access token", r -> "live_" + rs(r, URLSAFE, 40)));
        l.add(u("finicity-secret", "Finicity partner secret", r -> rs(r, AN, 20)));
        l.add(u("finicity-app-key", "Finicity app key", r -> rs(r, HEX, 32)));
        l.add(u("plaid-secret", "Plaid secret", r -> rs(r, HEX, 30)));
        l.add(p(
                "coinbase-cdp",
                "Coinbase API key name",
                r -> "organizations/" + uuid(r) + "/apiKeys/" + uuid(r) + "\n" + pem(r, "EC PRIVATE KEY", 121)));
        // AI
        l.add(p(
                "openai-project",
                "OpenAI API key",
                r -> "sk-proj-" + rs(r, URLSAFE, 74) + "T3BlbkFJ" + rs(r, URLSAFE, 74)));
        l.add(p(
                "openai-service-account",
                "OpenAI service account key",
                r -> "sk-svcacct-" + rs(r, URLSAFE, 74) + "T3BlbkFJ" + rs(r, URLSAFE, 74)));
        l.add(p(
                "openai-admin",
                "OpenAI admin key",
                r -> "sk-admin-" + rs(r, URLSAFE, 74) + "T3BlbkFJ" + rs(r, URLSAFE, 74)));
        l.add(p("openai-legacy", "OpenAI key", r -> "sk-" + rs(r, AN, 20) + "T3BlbkFJ" + rs(r, AN, 20)));
        l.add(p("anthropic", "Anthropic API key", r -> "sk-ant-api03-" + rs(r, URLSAFE, 93) + "AA"));
        l.add(p("anthropic-admin", "Anthropic admin key", r -> "sk-ant-admin01-" + rs(r, URLSAFE, 93) + "AA"));
        l.add(p("huggingface", "Hugging Face token", r -> "hf_" + rs(r, UPPER + LOWER, 34)));
        l.add(p("groq", "Groq API key", r -> "gsk_" + rs(r, AN, 52)));
        l.add(p("xai", "xAI API key", r -> "xai-" + rs(r, AN, 80)));
        l.add(p("perplexity", "Perplexity API key", r -> "pplx-" + rs(r, AN, 48)));
        l.add(p("replicate", "Replicate API token", r -> "r8_" + rs(r, AN, 37)));
        l.add(p("openrouter", "OpenRouter key", r -> "sk-or-v1-" + rs(r, HEX, 64)));
        l.add(p("langsmith", "LangSmith API key", r -> "lsv2_pt_" + rs(r, HEX, 32) + "_" + rs(r, HEX, 10)));
        l.add(u("cohere", "Cohere API key", r -> rs(r, AN, 40)));
        l.add(u("mistral", "Mistral API key", r -> rs(r, AN, 32)));
        l.add(u("azure-openai", "Azure OpenAI key", r -> rs(r, HEX, 32)));
        l.add(p("deepseek", "DeepSeek API key", r -> "sk-" + rs(r, HEX, 32)));
        // cloud
        l.add(p("aws-access-key-id", "AWS access key", r -> "AKIA" + rs(r, BASE32, 16)));
        l.add(p("aws-temporary-key-id", "AWS temporary key", r -> "ASIA" + rs(r, BASE32, 16)));
        l.add(u("aws-secret-access-key", "AWS secret access key", r -> rs(r, B64, 40)));
        l.add(p("google-api-key", "Google API key", r -> "AIza" + rs(r, URLSAFE, 35)));
        l.add(p("gcp-oauth-secret", "Google OAuth client secret", r -> "GOCSPX-" + rs(r, URLSAFE, 28)));
        l.add(p(
                "gcp-service-account",
                "service account key",
                r -> "{\"type\": \"service_account\", \"project_id\": \""
                        + rs(r, LOWER, 8) + "\", \"private_key_id\": \"" + rs(r, HEX, 40) + "\", \"private_key\": \""
                        + pem(r, "PRIVATE KEY", 300).replace("\n", "\\n") + "\"}"));
        l.add(p(
                "azure-storage-connection",
                "storage connection string",
                r -> "DefaultEndpointsProtocol=https;AccountName=" + rs(r, LOWER_AN, 12) + ";AccountKey="
                        + b64bytes(r, 64) + ";EndpointSuffix=core.windows.net"));
        l.add(u("azure-storage-key", "Azure storage account key", r -> b64bytes(r, 64)));
        l.add(p(
                "azure-ad-client-secret",
                "Azure client secret",
                r -> rs(r, AN, 3) + "8Q~" + rs(r, URLSAFE + ".~", 34)));
        l.add(p(
                "azure-sas",
                "SAS URL",
                r -> "https://" + rs(r, LOWER, 10)
                        + ".blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&sig="
                        + rs(r, AN, 43) + "%3D"));
        l.add(u("azure-devops-pat", "Azure DevOps PAT", r -> rs(r, LOWER + "234567", 52)));
        l.add(p("alibaba-access-key", "Alibaba access key", r -> "LTAI" + rs(r, AN, 20)));
        l.add(p("tencent-secret-id", "Tencent SecretId", r -> "AKID" + rs(r, AN, 32)));
        l.add(p("digitalocean-pat", "DigitalOcean token", r -> "dop_v1_" + rs(r, HEX, 64)));
        l.add(p("digitalocean-oauth", "DigitalOcean OAuth token", r -> "doo_v1_" + rs(r, HEX, 64)));
        l.add(u("cloudflare-api-token", "Cloudflare API token", r -> rs(r, URLSAFE, 40)));
        l.add(u("cloudflare-global-key", "Cloudflare global API key", r -> rs(r, HEX, 37)));
        l.add(p("cloudflare-origin-ca", "Origin CA key", r -> "v1.0-" + rs(r, HEX, 24) + "-" + rs(r, HEX, 146)));
        l.add(p("heroku-new", "Heroku API key", r -> "HRKU-AA" + rs(r, URLSAFE, 58)));
        l.add(u("heroku-legacy", "Heroku API key", r -> uuid(r)));
        l.add(u("linode", "Linode token", r -> rs(r, HEX, 64)));
        l.add(p("databricks", "Databricks token", r -> "dapi" + rs(r, HEX, 32) + (r.nextBoolean() ? "-2" : "")));
        l.add(p("fly-io", "Fly token", r -> "FlyV1 fm2_" + rs(r, B64, 120)));
        l.add(p("vault-service", "Vault token", r -> "hvs." + rs(r, URLSAFE, 90)));
        l.add(p("vault-batch", "Vault batch token", r -> "hvb." + rs(r, URLSAFE, 138)));
        l.add(p("terraform-cloud", "Terraform Cloud token", r -> rs(r, AN, 14) + ".atlasv1." + rs(r, AN, 67)));
        l.add(p("pulumi", "Pulumi access token", r -> "pul-" + rs(r, HEX, 40)));
        l.add(p("doppler", "Doppler token", r -> "dp.pt." + rs(r, AN, 43)));
        l.add(p("planetscale-password", "PlanetScale password", r -> "pscale_pw_" + rs(r, URLSAFE, 43)));
        l.add(p("planetscale-token", "PlanetScale token", r -> "pscale_tkn_" + rs(r, URLSAFE, 43)));
        l.add(p("supabase", "Supabase access token", r -> "sbp_" + rs(r, HEX, 40)));
        l.add(p("netlify", "Netlify token", r -> "nfp_" + rs(r, AN, 36)));
        l.add(u("vercel", "Vercel token", r -> rs(r, AN, 24)));
        l.add(p("infracost", "Infracost API key", r -> "ico-" + rs(r, AN, 32)));
        l.add(p("openshift", "OpenShift token", r -> "sha256~" + rs(r, URLSAFE, 43)));
        l.add(p("scalingo", "Scalingo token", r -> "tk-us-" + rs(r, URLSAFE, 48)));
        l.add(p(
                "defined-networking",
                "Defined Networking API key",
                r -> "dnkey-" + rs(r, UPPER_AN, 26) + "-" + rs(r, UPPER_AN, 52)));
        l.add(p("yandex-oauth", "Yandex OAuth token", r -> "y0_" + rs(r, URLSAFE, 55)));
        l.add(p("onepassword-service", "1Password service account token", r -> "ops_eyJ" + rs(r, B64, 250)));
        l.add(p("age", "age identity", r -> "AGE-SECRET-KEY-1" + rs(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)));
        // observability and ops
        l.add(u("datadog-api", "Datadog API key", r -> rs(r, HEX, 32)));
        l.add(u("datadog-app", "Datadog application key", r -> rs(r, HEX, 40)));
        l.add(p(
                "grafana-service-account",
                "Grafana service account token",
                r -> "glsa_" + rs(r, AN, 32) + "_" + rs(r, HEX, 8)));
        l.add(p(
                "grafana-cloud",
                "Grafana Cloud token",
                r -> "glc_"
                        + b64("{\"o\":\"" + digits(r, 6) + "\",\"n\":\"stack-" + digits(r, 6) + "\",\"k\":\""
                                + rs(r, AN, 24) + "\",\"m\":{\"r\":\"us\"}}")));
        l.add(p(
                "grafana-api-key",
                "Grafana API key",
                r -> b64("{\"k\":\"" + rs(r, AN, 32) + "\",\"n\":\"deploy\",\"id\":" + digits(r, 1) + "}")));
        l.add(p("newrelic-user", "New Relic user key", r -> "NRAK-" + rs(r, UPPER_AN, 27)));
        l.add(p("newrelic-insert", "New Relic insert key", r -> "NRII-" + rs(r, URLSAFE, 32)));
        l.add(u("newrelic-license", "New Relic license key", r -> rs(r, HEX, 36) + "NRAL"));
        l.add(p(
                "sentry-org",
                "Sentry auth token",
                r -> "sntrys_"
                        + b64url(
                                "{\"iat\":" + digits(r, 10)
                                        + ",\"url\":\"https://sentry.io\",\"region_url\":\"https://us.sentry.io\",\"org\":\"acme\"}")
                        + "_"
                        + rs(r, AN, 43)));
        l.add(p("sentry-user", "Sentry user token", r -> "sntryu_" + rs(r, HEX, 64)));
        l.add(p("dynatrace", "Dynatrace token", r -> "dt0c01." + rs(r, UPPER_AN, 24) + "." + rs(r, UPPER_AN, 64)));
        l.add(u("sumologic-access-id", "Sumo Logic access ID", r -> "su" + rs(r, AN, 12)));
        l.add(u("sumologic-access-key", "Sumo Logic access key", r -> rs(r, AN, 64)));
        l.add(u("splunk-hec", "Splunk HEC token", r -> uuid(r).toUpperCase(Locale.ROOT)));
        l.add(u("pagerduty", "PagerDuty API key", r -> "u+" + rs(r, URLSAFE, 18)));
        l.add(u("honeycomb", "Honeycomb API key", r -> "hcaik_" + rs(r, LOWER_AN, 58)));
        l.add(u("okta", "Okta API token", r -> "00" + rs(r, URLSAFE, 40)));
        l.add(u("rollbar", "Rollbar access token", r -> rs(r, HEX, 32)));
        l.add(u("algolia-admin", "Algolia admin key", r -> rs(r, HEX, 32)));
        l.add(u("launchdarkly", "LaunchDarkly SDK key", r -> "sdk-" + uuid(r)));
        // CI, registries, dev tools
        l.add(p("npm", "npm token", r -> githubToken(r, "npm_")));
        l.add(p("pypi", "PyPI token", r -> "pypi-AgEIcHlwaS5vcmc" + rs(r, URLSAFE, 70)));
        l.add(p("rubygems", "RubyGems API key", r -> "rubygems_" + rs(r, HEX, 48)));
        l.add(p("nuget", "NuGet API key", r -> "oy2" + rs(r, LOWER_AN, 43)));
        l.add(p("docker-hub", "Docker Hub token", r -> "dckr_pat_" + rs(r, URLSAFE, 27)));
        l.add(p("clojars", "Clojars token", r -> "CLOJARS_" + rs(r, LOWER_AN, 60)));
        l.add(p("jfrog-reference", "Artifactory token", r -> "cmVmdGtuOjAxOj" + rs(r, AN, 50)));
        l.add(p("jfrog-api-key", "Artifactory API key", r -> "AKCp" + rs(r, AN, 69)));
        l.add(p("sonarqube", "SonarQube token", r -> "squ_" + rs(r, HEX, 40)));
        l.add(p("sourcegraph", "Sourcegraph token", r -> "sgp_" + rs(r, HEX, 16) + "_" + rs(r, HEX, 40)));
        l.add(p("prefect", "Prefect API key", r -> "pnu_" + rs(r, AN, 36)));
        l.add(p("readme", "ReadMe API key", r -> "rdme_" + rs(r, LOWER_AN, 70)));
        l.add(p("octopus", "Octopus API key", r -> "API-" + rs(r, UPPER_AN, 26)));
        l.add(p(
                "harness",
                "Harness token",
                r -> "pat." + rs(r, URLSAFE, 22) + "." + rs(r, HEX, 24) + "." + rs(r, AN, 20)));
        l.add(u("circleci", "CircleCI token", r -> rs(r, HEX, 40)));
        l.add(u("travis", "Travis CI token", r -> rs(r, URLSAFE, 22)));
        l.add(u("codecov", "Codecov token", r -> uuid(r)));
        l.add(u("snyk", "Snyk token", r -> uuid(r)));
        l.add(p("postman", "Postman API key", r -> "PMAK-" + rs(r, HEX, 24) + "-" + rs(r, HEX, 34)));
        l.add(p("linear", "Linear API key", r -> "lin_api_" + rs(r, AN, 40)));
        l.add(p("notion", "Notion integration secret", r -> "ntn_" + digits(r, 11) + rs(r, AN, 35)));
        l.add(p("figma", "Figma token", r -> "figd_" + rs(r, URLSAFE, 40)));
        l.add(p("airtable", "Airtable token", r -> "pat" + rs(r, AN, 14) + "." + rs(r, HEX, 64)));
        l.add(p("hubspot", "HubSpot private app token", r -> "pat-na1-" + uuid(r)));
        l.add(p("dropbox", "Dropbox token", r -> "sl." + rs(r, URLSAFE, 135)));
        l.add(p("contentful", "Contentful token", r -> "CFPAT-" + rs(r, URLSAFE, 43)));
        l.add(p("mapbox", "Mapbox secret token", r -> "sk.eyJ1Ijoi" + rs(r, AN, 20) + "." + rs(r, URLSAFE, 22)));
        l.add(p("shippo", "Shippo token", r -> "shippo_live_" + rs(r, HEX, 40)));
        l.add(p("easypost", "EasyPost key", r -> "EZAK" + rs(r, AN, 54)));
        l.add(p("duffel", "Duffel token", r -> "duffel_live_" + rs(r, URLSAFE, 43)));
        l.add(p("frameio", "Frame.io token", r -> "fio-u-" + rs(r, URLSAFE, 64)));
        l.add(p("typeform", "Typeform token", r -> "tfp_" + rs(r, URLSAFE, 44) + "_" + rs(r, URLSAFE, 14)));
        l.add(p("adobe-client-secret", "Adobe client secret", r -> "p8e-" + rs(r, AN, 32)));
        l.add(p("beamer", "Beamer API key", r -> "b_" + rs(r, URLSAFE + "=", 44)));
        l.add(u(
                "asana",
                "Asana personal access token",
                r -> "2/" + digits(r, 16) + "/" + digits(r, 16) + ":" + rs(r, HEX, 32)));
        l.add(u("intercom", "Intercom access token", r -> "dG9rOj" + rs(r, AN, 54) + "="));
        l.add(u("zendesk", "Zendesk API token", r -> rs(r, AN, 40)));
        l.add(u("facebook-app-secret", "Facebook app secret", r -> rs(r, HEX, 32)));
        l.add(p("facebook-access", "Facebook access token", r -> "EAAB" + rs(r, AN, 140)));
        l.add(p("twitter-bearer", "Twitter bearer token", r -> "AAAAAAAAAAAAAAAAAAAAA" + rs(r, AN + "%", 90)));
        l.add(u("twitch", "Twitch client secret", r -> rs(r, LOWER_AN, 30)));
        l.add(u("kucoin", "KuCoin API secret", r -> uuid(r)));
        l.add(u("etsy", "Etsy API key", r -> rs(r, LOWER_AN, 24)));
        l.add(u("fastly", "Fastly API token", r -> rs(r, URLSAFE, 32)));
        // keys, tokens and credentials of any provider
        l.add(p("private-key-rsa", "RSA private key", r -> pem(r, "RSA PRIVATE KEY", 600)));
        l.add(p("private-key-openssh", "SSH key", r -> pem(r, "OPENSSH PRIVATE KEY", 300)));
        l.add(p("private-key-pkcs8", "private key", r -> pem(r, "PRIVATE KEY", 400)));
        l.add(p("private-key-ec", "EC private key", r -> pem(r, "EC PRIVATE KEY", 121)));
        l.add(p("jwt", "ID token", SecretCorpus::jwt));
        l.add(p(
                "url-postgres",
                "database URL",
                r -> "postgresql://app:" + password(r).replace("@", "%40") + "@" + host(r) + ":5432/orders"));
        l.add(p(
                "url-postgres-driver",
                "SQLAlchemy URL",
                r -> "postgresql+psycopg2://etl:" + rs(r, AN, 16) + "@" + host(r) + "/warehouse"));
        l.add(p("url-mysql", "MySQL DSN", r -> "mysql://root:" + rs(r, AN, 14) + "@" + host(r) + ":3306/shop"));
        l.add(p(
                "url-mongodb-srv",
                "Mongo URI",
                r -> "mongodb+srv://svc:" + rs(r, AN, 18) + "@cluster0." + rs(r, LOWER_AN, 5)
                        + ".mongodb.net/?retryWrites=true"));
        l.add(p("url-redis", "Redis URL", r -> "redis://:" + rs(r, AN, 24) + "@" + host(r) + ":6379/0"));
        l.add(p("url-amqp", "broker URL", r -> "amqps://worker:" + rs(r, AN, 16) + "@rabbit.acme.io/vhost"));
        l.add(p(
                "url-password-with-at",
                "database URL",
                r -> "postgres://deploy:" + rs(r, AN, 6) + "@" + rs(r, AN, 6) + "@" + host(r) + ":5432/app"));
        l.add(p("url-https-basic", "feed URL", r -> "https://ci-bot:" + rs(r, AN, 20) + "@git.acme.io/team/repo.git"));
        l.add(p(
                "jdbc",
                "JDBC URL",
                r -> "jdbc:postgresql://" + host(r) + ":5432/app?user=app&password=" + rs(r, AN, 16)));
        l.add(p(
                "curl-basic",
                "curl call",
                r -> "curl -u admin:" + rs(r, AN, 16) + " https://jenkins.acme.io/api/json"));
        l.add(p(
                "authorization-basic",
                "Authorization header",
                r -> "Authorization: Basic " + b64("deploy:" + rs(r, AN, 18))));
        l.add(p("authorization-bearer", "bearer header", r -> "Authorization: Bearer " + rs(r, URLSAFE, 40)));
        l.add(u("password", "password", SecretCorpus::password));
        l.add(u("db-password", "database password", SecretCorpus::password));
        l.add(u("api-secret", "API secret", r -> rs(r, AN, 32)));
        l.add(u("client-secret", "client secret", r -> rs(r, URLSAFE, 36)));
        return List.copyOf(l);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // contexts

    /** How a credential's kind is named: the label, and the forms code and configuration use. */
    record Names(String label, String env, String snake, String camel) {
        static Names of(String label) {
            String words = label.replaceAll("[^A-Za-z0-9 ]", " ").trim().replaceAll("\\s+", " ");
            String snake = words.toLowerCase(Locale.ROOT).replace(' ', '_');
            StringBuilder camel = new StringBuilder();
            for (String w : words.split(" ")) {
                String lw = w.toLowerCase(Locale.ROOT);
                camel.append(camel.length() == 0 ? lw : Character.toUpperCase(lw.charAt(0)) + lw.substring(1));
            }
            return new Names(label, snake.toUpperCase(Locale.ROOT), snake, camel.toString());
        }
    }

    interface Template {
        String fill(Names n, String value);
    }

    record Context(String name, Template template) {}

    /** One per context kind, two sentences each: the development part's templates. */
    static List<Context> devContexts() {
        return List.of(
                new Context("prose", (n, v) -> "Here is my " + n.label() + ": " + v),
                new Context("prose", (n, v) -> "I set the " + n.label() + " to " + v + " yesterday, it works now."),
                new Context(
                        "json", (n, v) -> "{\"" + n.camel() + "\": \"" + json(v) + "\", \"region\": \"us-east-1\"}"),
                new Context("json", (n, v) -> "{\"service\":\"billing\",\"" + n.snake() + "\":\"" + json(v) + "\"}"),
                new Context("yaml", (n, v) -> n.snake() + ": " + yaml(v) + "\nregion: eu-west-1"),
                new Context("yaml", (n, v) -> "credentials:\n  " + n.camel() + ": \"" + json(v) + "\""),
                new Context("env", (n, v) -> n.env() + "=" + v),
                new Context("env", (n, v) -> "# staging\n" + n.env() + "='" + v + "'\nLOG_LEVEL=debug"),
                new Context("shell", (n, v) -> "export " + n.env() + "=" + quoteShell(v)),
                new Context("shell", (n, v) -> n.env() + "=" + quoteShell(v) + " npm run deploy"),
                new Context(
                        "tool-call",
                        (n, v) -> "{\"name\":\"set_env\",\"arguments\":{\"key\":\"" + n.env() + "\",\"value\":\""
                                + json(v) + "\"}}"),
                new Context(
                        "tool-call",
                        (n, v) -> "call write_file(path=\".env\", content=\"" + n.env() + "=" + json(v) + "\")"),
                new Context("code", (n, v) -> "const " + n.camel() + " = \"" + json(v) + "\";"),
                new Context("code", (n, v) -> n.snake() + " = \"" + json(v) + "\"  # TODO move to vault"),
                new Context("zh-prose", (n, v) -> "我的" + n.label() + "是 " + v + "，别告诉别人"),
                new Context("zh-prose", (n, v) -> "记住：" + n.label() + " " + v + " 只在测试环境用"));
    }

    /** The held-out part's templates: the same kinds of places, other sentences, keys and neighbours. */
    static List<Context> heldOutContexts() {
        return List.of(
                new Context(
                        "prose",
                        (n, v) -> "Note to self - the " + n.label() + " for prod is " + v + " (rotate it in March)."),
                new Context(
                        "prose",
                        (n, v) -> "FYI, ops sent over the new " + n.label() + ", which is " + v
                                + ", please update the runbook."),
                new Context(
                        "json",
                        (n, v) -> "{\n  \"config\": {\n    \"" + n.snake() + "\": \"" + json(v)
                                + "\",\n    \"timeout\": 30\n  }\n}"),
                new Context(
                        "json",
                        (n, v) ->
                                "[{\"name\": \"" + n.env() + "\", \"value\": \"" + json(v) + "\", \"secure\": false}]"),
                new Context(
                        "yaml",
                        (n, v) -> "env:\n  - name: " + n.env() + "\n    value: \"" + json(v)
                                + "\"\n  - name: PORT\n    value: \"8080\""),
                new Context("yaml", (n, v) -> "spring:\n  app:\n    " + n.camel() + ": '" + v.replace("'", "''") + "'"),
                new Context("env", (n, v) -> n.env() + "=\"" + v.replace("\"", "\\\"") + "\"  # prod"),
                new Context("env", (n, v) -> "APP_ENV=production\n" + n.env() + " = " + v),
                new Context(
                        "shell", (n, v) -> "docker run --rm -e " + n.env() + "=" + quoteShell(v) + " acme/worker:2.4"),
                new Context(
                        "shell",
                        (n, v) -> "gh secret set " + n.env() + " --body " + quoteShell(v) + " --repo acme/api"),
                new Context(
                        "tool-call",
                        (n, v) -> "{\"tool\": \"configure_integration\", \"input\": {\"provider\": " + "\"acme\", \""
                                + n.snake() + "\": \"" + json(v) + "\"}}"),
                new Context(
                        "tool-call",
                        (n, v) -> "<invoke name=\"update_settings\"><parameter name=\"" + n.snake() + "\">" + v
                                + "</parameter></invoke>"),
                new Context("code", (n, v) -> "os.environ.setdefault(\"" + n.env() + "\", \"" + json(v) + "\")"),
                new Context("code", (n, v) -> "private static final String " + n.env() + " = \"" + json(v) + "\";"),
                new Context("zh-prose", (n, v) -> "请把" + n.label() + "改成 " + v + " 然后重启服务。"),
                new Context("zh-prose", (n, v) -> "新的" + n.label() + "：" + v + "（上周五生成的）"));
    }

    private static String json(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String yaml(String v) {
        return v.contains("\n") ? "|\n  " + v.replace("\n", "\n  ") : "\"" + json(v) + "\"";
    }

    private static String quoteShell(String v) {
        return v.matches("[A-Za-z0-9_./:=+-]+") ? v : "'" + v.replace("'", "'\\''") + "'";
    }

    // ---------------------------------------------------------------------------------------------------------------
    // clean look-alikes

    /** A clean value, named as what it is, put in the part's templates. */
    record LookAlike(String kind, String label, Function<Random, String> make) {}

    static List<LookAlike> lookAlikes() {
        List<LookAlike> l = new ArrayList<>();
        l.add(new LookAlike("hash", "commit SHA", r -> rs(r, HEX, 40)));
        l.add(new LookAlike("hash", "checksum", r -> rs(r, HEX, 64)));
        l.add(new LookAlike("hash", "md5", r -> rs(r, HEX, 32)));
        l.add(new LookAlike("hash", "image digest", r -> "sha256:" + rs(r, HEX, 64)));
        l.add(new LookAlike("hash", "integrity", r -> "sha512-" + b64bytes(r, 64)));
        l.add(new LookAlike("uuid", "request id", SecretCorpus::uuid));
        l.add(new LookAlike("uuid", "trace id", r -> rs(r, HEX, 32)));
        l.add(new LookAlike("uuid", "tenant id", SecretCorpus::uuid));
        l.add(new LookAlike("base64-data", "payload", r -> b64(sentence(r))));
        l.add(new LookAlike("base64-data", "encoded message", r -> b64url(sentence(r) + " " + sentence(r))));
        l.add(new LookAlike(
                "identifier",
                "handler",
                r -> pick(
                        r,
                        "resetPasswordToken",
                        "getApiKey",
                        "refresh_token_ttl",
                        "SECRET_KEY_BASE_DUMMY",
                        "validateAccessToken",
                        "password_reset_expires_at",
                        "ApiKeyAuthenticationFilter",
                        "tokenizerConfig",
                        "PasswordEncoderFactories",
                        "clientSecretExpiresAt")));
        l.add(new LookAlike(
                "public-key",
                "SSH public key",
                r -> "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(r, B64, 43) + " dev@laptop"));
        l.add(new LookAlike("public-key", "public key", r -> pem(r, "PUBLIC KEY", 294)));
        l.add(new LookAlike("public-key", "Stripe publishable key", r -> "pk_live_" + rs(r, AN, 99)));
        l.add(new LookAlike(
                "public-key",
                "OAuth client ID",
                r -> digits(r, 12) + "-" + rs(r, LOWER_AN, 32) + ".apps.googleusercontent.com"));
        l.add(new LookAlike("public-key", "Twilio account SID", r -> "AC" + rs(r, HEX, 32)));
        l.add(new LookAlike("public-key", "certificate", r -> pem(r, "CERTIFICATE", 500)));
        l.add(new LookAlike("id", "order number", r -> digits(r, 12)));
        l.add(new LookAlike("id", "object key", r -> "uploads/2026/11/" + rs(r, LOWER_AN, 24) + ".png"));
        l.add(new LookAlike("id", "price id", r -> "price_1" + rs(r, AN, 23)));
        l.add(new LookAlike("id", "S3 ETag", r -> "\"" + rs(r, HEX, 32) + "-" + (2 + r.nextInt(9)) + "\""));
        l.add(new LookAlike("id", "pod", r -> "api-" + rs(r, LOWER_AN, 10) + "-" + rs(r, LOWER_AN, 5)));
        return List.copyOf(l);
    }

    /** Lines that name a credential but hold none: placeholders, documented examples, references, fixtures. */
    static List<String> namedButClean(Random r, Part part) {
        List<String> l = new ArrayList<>();
        String[] placeholders = {
            "sk-...",
            "<your-token>",
            "xxxx",
            "YOUR_API_KEY",
            "${API_TOKEN}",
            "{{ secrets.DEPLOY_TOKEN }}",
            "********",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "sk_live_...",
            "<redacted>",
            "$(vault read -field=token secret/ci)",
            "REPLACE_WITH_YOUR_KEY",
            "your-secret-here",
            "<paste token>",
            "xoxb-your-bot-token",
            "AKIAXXXXXXXXXXXXXXXX",
            "%API_KEY%"
        };
        // the providers' documented example values (AWS, Stripe, Slack, jwt.io docs)
        String[] examples = {
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
            "AKIAI44QH8DHBEXAMPLE",
            "xoxb-not-a-real-token-this-will-not-work",
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
                    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        };
        String[] references = part == Part.DEV
                ? new String[] {
                    "api_key = os.environ[\"OPENAI_API_KEY\"]",
                    "const token = process.env.GITHUB_TOKEN;",
                    "password = getpass.getpass(\"Password: \")",
                    "String secret = System.getenv(\"STRIPE_SECRET_KEY\");",
                    "token := os.Getenv(\"SLACK_BOT_TOKEN\")",
                    "headers = {\"Authorization\": f\"Bearer {token}\"}",
                    "AWS_SECRET_ACCESS_KEY=$(aws configure get aws_secret_access_key)",
                    "if (resetPasswordToken == null || resetPasswordToken.isExpired()) {",
                    "The password must be at least 12 characters long.",
                    "Rotate the Datadog API key every 90 days.",
                    "密码长度至少 12 位，需要包含数字",
                    "curl -u \"$USER:$TOKEN\" https://api.github.com/user",
                    "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
                    "secretKeyRef:\n  name: db-credentials\n  key: password"
                }
                : new String[] {
                    "self.client_secret = settings.CLIENT_SECRET",
                    "let apiKey = try keychain.get(\"openai_api_key\")",
                    "db_password = Secret(\"prod/db/password\").value()",
                    "token = request.headers.get(\"Authorization\", \"\").removeprefix(\"Bearer \")",
                    "export AWS_SECRET_ACCESS_KEY=\"$(op read op://ci/aws/secret)\"",
                    "@Value(\"${datadog.api-key}\") private String datadogApiKey;",
                    "curl -u user:password https://example.com/api",
                    "Forgot your password? Click the reset link we emailed you.",
                    "The token is valid for 3600 seconds and is refreshed automatically.",
                    "把 API 密钥存到 Secrets Manager 里，不要写进代码",
                    "passwordResetTokenExpiry = Duration.ofHours(2)",
                    "docker login -u ci --password-stdin < ~/.docker-token",
                    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
                    "assert token_store.get(\"user-42\") is None"
                };
        // fixtures: test values of no entropy, or marked as fake
        String[] fixtures = part == Part.DEV
                ? new String[] {
                    "FAKE_TOKEN = \"ghp_000000000000000000000000000000000000\"",
                    "password: test",
                    "api_key: \"test-api-key\"",
                    "assertEquals(\"dummy-secret\", config.secret());"
                }
                : new String[] {
                    "mock_client = Client(api_key=\"fake-key-for-tests\")",
                    "password = \"test\"  # unit-test fixture",
                    "token: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
                    "expect(mask(\"sk-12345\")).toBe(\"sk-*****\")"
                };
        for (String s : placeholders) {
            l.add("placeholder\t" + s);
        }
        for (String s : examples) {
            l.add("documented-example\t" + s);
        }
        for (String s : references) {
            l.add("reference\t" + s);
        }
        for (String s : fixtures) {
            l.add("test-fixture\t" + s);
        }
        return l;
    }

    private static String sentence(Random r) {
        String[] s = {
            "The quarterly report is due on Friday",
            "Remember to water the plants in the lobby",
            "Meeting moved to room 4B at three o'clock",
            "The build passed on the second attempt",
            "Customer asked for an invoice in euros",
            "Lunch order: two salads and one soup",
            "Deploy window is Tuesday between 9 and 11",
            "我们下周一开始新的迭代"
        };
        return s[r.nextInt(s.length)] + " #" + r.nextInt(1000);
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... values) {
        return values[r.nextInt(values.length)];
    }

    // ---------------------------------------------------------------------------------------------------------------
    // the corpus

    /** Both parts: per provider two secrets per template; per look-alike, per named-clean line, a few placements. */
    static List<Sample> generate() {
        List<Sample> out = new ArrayList<>();
        out.addAll(new SecretCorpus(20261202L).part(Part.DEV, devContexts()));
        out.addAll(new SecretCorpus(777_001L).part(Part.HELD_OUT, heldOutContexts()));
        return out;
    }

    private List<Sample> part(Part part, List<Context> contexts) {
        List<Sample> out = new ArrayList<>();
        String[] neutral = {"token", "key", "credential", "secret", "access token"};
        for (Provider p : providers()) {
            for (Context c : contexts) {
                // a prefixed kind is also stated under a neutral name: its prefix alone must find it
                String label =
                        p.prefixed() && random.nextInt(3) == 0 ? neutral[random.nextInt(neutral.length)] : p.label();
                out.add(new Sample(
                        part,
                        true,
                        p.id(),
                        c.name(),
                        c.template().fill(Names.of(label), p.make().apply(random))));
            }
        }
        for (LookAlike a : lookAlikes()) {
            for (Context c : contexts) {
                out.add(new Sample(
                        part,
                        false,
                        a.kind(),
                        c.name(),
                        c.template().fill(Names.of(a.label()), a.make().apply(random))));
            }
        }
        // placeholders and documented examples under the names of the providers' credentials, in every template
        List<String> named = namedButClean(random, part);
        List<Provider> providers = providers();
        for (String line : named) {
            int tab = line.indexOf('\t');
            String kind = line.substring(0, tab);
            String value = line.substring(tab + 1);
            if (kind.equals("placeholder") || kind.equals("documented-example")) {
                for (Context c : contexts) {
                    Provider p = providers.get(random.nextInt(providers.size()));
                    out.add(new Sample(part, false, kind, c.name(), c.template().fill(Names.of(p.label()), value)));
                }
            } else {
                out.add(new Sample(part, false, kind, "line", value));
            }
        }
        return out;
    }
}
