/** Reserved for the CDK app; see this module's README. */
package dev.cairn.infra;
