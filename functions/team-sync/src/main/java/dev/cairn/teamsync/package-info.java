/** Reserved for the team-sync function; see this module's README for what will live here. */
package dev.cairn.teamsync;
