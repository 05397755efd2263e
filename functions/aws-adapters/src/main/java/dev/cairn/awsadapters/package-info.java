/** Reserved for the aws-adapters function; see this module's README for what will live here. */
package dev.cairn.awsadapters;
