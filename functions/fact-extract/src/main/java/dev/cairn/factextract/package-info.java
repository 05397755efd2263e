/** Reserved for the fact-extract function; see this module's README for what will live here. */
package dev.cairn.factextract;
