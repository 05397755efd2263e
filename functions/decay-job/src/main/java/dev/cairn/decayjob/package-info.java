/** Reserved for the decay-job function; see this module's README for what will live here. */
package dev.cairn.decayjob;
