/** Reserved for the session-summarize function; see this module's README for what will live here. */
package dev.cairn.sessionsummarize;
