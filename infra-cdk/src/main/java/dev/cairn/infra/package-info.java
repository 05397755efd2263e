/**
 * The CDK v2 app that deploys Cairn into one AWS account and region: {@link dev.cairn.infra.CairnApp} reads the
 * context ({@link dev.cairn.infra.CairnSettings}) and builds one {@link dev.cairn.infra.CairnStack}; every Quarkus
 * function goes through {@link dev.cairn.infra.QuarkusFunction}; which function owns which route is the table in
 * {@link dev.cairn.infra.Routes}.
 */
package dev.cairn.infra;
