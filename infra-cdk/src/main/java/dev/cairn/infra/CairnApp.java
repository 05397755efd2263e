package dev.cairn.infra;

import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/** {@code cdk synth|deploy} entry point (cdk.json runs it): one Cairn stack, settings from context. */
public final class CairnApp {

    private CairnApp() {}

    public static void main(String[] args) {
        App app = new App();
        CairnSettings settings = CairnSettings.from(app.getNode()::tryGetContext);
        new CairnStack(
                app,
                "Cairn",
                StackProps.builder()
                        .env(Environment.builder()
                                .account(System.getenv("CDK_DEFAULT_ACCOUNT"))
                                .region(System.getenv("CDK_DEFAULT_REGION"))
                                .build())
                        .description("Cairn: layered memory and cache service for AI agents")
                        .build(),
                settings);
        app.synth();
    }
}
