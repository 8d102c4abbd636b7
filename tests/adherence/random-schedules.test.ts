import { describe, expect, it } from "vitest";
import { assignPlan, moveAssignment } from "../factories/content.js";
import { makeStudent, makeTrainer, relogin } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { adherenceOf, DAY_MS, gymOf, link, trained, weeklyPlan, type Day } from "./support.js";

const t = useTestApp();

/*
 * Adherence counts each plan line's sessions in a range of days in closed form (whole ISO weeks, weekday by weekday),
 * never day by day. These scenes check it against the contract's rule applied literally (§12.2): every day of every
 * span expanded, sessions and executions matched per ISO week and training. Random plans, spans (mid-week starts,
 * ends, completions, starts after today, canceled and pending assignments), executions (several in a week, on other
 * days, unscheduled trainings, not completed, later in today's week) and days read, from fixed seeds.
 */

const DAYS: Day[] = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];
const LETTERS = ["A", "B", "C", "D"]; // D is in no plan
const WINDOWS = [7, 30, 90];

/** mulberry32: a small seeded generator, so a failing scene replays. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] };
}

/** Days as numbers (days since 1970-01-01, a Thursday) and back. */
const dayOf = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 = Monday … 6 = Sunday. */
const weekdayOf = (day: number) => (day + 3) % 7;
const mondayOf = (day: number) => day - weekdayOf(day);
const share = (completed: number, scheduled: number) => (scheduled === 0 ? null : Math.round((completed * 1000) / scheduled) / 1000);

interface Line {
  letter: string;
  weekday: number;
}
interface Assignment {
  id: number;
  planId: number;
  planName: string;
  lines: Line[];
  status: "PENDING" | "ACTIVE" | "COMPLETED" | "CANCELED";
  start: number;
  end: number | null;
  completedOn: number | null;
}
interface Execution {
  letter: string;
  start: number; // ms
  completed: boolean;
}

/** The contract's rule, literally: each scheduling span expanded day by day, then matched per ISO week and training. */
function expected(assignments: Assignment[], executions: Execution[], todayMs: number, window: number) {
  const today = Math.floor(todayMs / DAY_MS);
  const from = today - window + 1;
  const previousFrom = from - window;
  const sessions: { assignment: Assignment; letter: string; day: number }[] = [];
  for (const assignment of assignments) {
    if (assignment.status !== "ACTIVE" && assignment.status !== "COMPLETED") continue;
    const last = Math.min(today, assignment.end ?? Infinity, assignment.status === "COMPLETED" ? assignment.completedOn! : Infinity);
    for (let day = assignment.start; day <= last; day++)
      for (const line of assignment.lines) if (line.weekday === weekdayOf(day)) sessions.push({ assignment, letter: line.letter, day });
  }
  const executionsOf = (week: number, letter: string) =>
    executions.filter((e) => e.completed && e.letter === letter && mondayOf(Math.floor(e.start / DAY_MS)) === week).length;
  /** Per ISO week and training, the sessions in [lo, hi] and the executions: done is the lesser. */
  const matched = (lo: number, hi: number) => {
    const groups = new Map<string, { week: number; letter: string; sessions: typeof sessions }>();
    for (const session of sessions.filter((s) => s.day >= lo && s.day <= hi)) {
      const week = mondayOf(session.day);
      const key = `${week}:${session.letter}`;
      if (!groups.has(key)) groups.set(key, { week, letter: session.letter, sessions: [] });
      groups.get(key)!.sessions.push(session);
    }
    return [...groups.values()].map((group) => ({ ...group, done: Math.min(group.sessions.length, executionsOf(group.week, group.letter)) }));
  };
  const figures = (lo: number, hi: number) => {
    const groups = matched(lo, hi);
    const scheduled = groups.reduce((sum, g) => sum + g.sessions.length, 0);
    const completed = groups.reduce((sum, g) => sum + g.done, 0);
    return { scheduled, completed, adherence: share(completed, scheduled) };
  };
  const current = figures(from, today);
  const previous = figures(previousFrom, from - 1);
  const thisWeek = figures(mondayOf(today), today);

  const inWindow = matched(from, today);
  const weeks = [];
  for (let week = mondayOf(from); week <= today; week += 7) {
    const groups = inWindow.filter((g) => g.week === week);
    weeks.push({
      weekStart: isoOf(week),
      scheduled: groups.reduce((sum, g) => sum + g.sessions.length, 0),
      completed: groups.reduce((sum, g) => sum + g.done, 0),
    });
  }
  // A week's done sessions of a training go to the assignments scheduling it, the earliest started first.
  const shares = new Map<number, { scheduled: number; completed: number }>();
  for (const group of inWindow) {
    let left = group.done;
    const byAssignment = new Map<Assignment, number>();
    for (const session of group.sessions) byAssignment.set(session.assignment, (byAssignment.get(session.assignment) ?? 0) + 1);
    for (const [assignment, scheduled] of [...byAssignment].sort(([a], [b]) => a.start - b.start || a.id - b.id)) {
      const done = Math.min(scheduled, left);
      left -= done;
      const figure = shares.get(assignment.id) ?? { scheduled: 0, completed: 0 };
      shares.set(assignment.id, { scheduled: figure.scheduled + scheduled, completed: figure.completed + done });
    }
  }
  const listed = assignments
    .filter((a) => a.status === "ACTIVE" || a.status === "COMPLETED")
    .filter((a) => {
      const last = Math.min(today, a.end ?? Infinity, a.status === "COMPLETED" ? a.completedOn! : Infinity);
      return last >= from && a.start <= last;
    })
    .sort((a, b) => a.start - b.start || a.id - b.id)
    .map((a) => {
      const { scheduled, completed } = shares.get(a.id) ?? { scheduled: 0, completed: 0 };
      return { assignmentId: a.id, planId: a.planId, planName: a.planName, scheduled, completed, adherence: share(completed, scheduled) };
    });

  const done = executions.filter((e) => e.completed && e.start < (today + 1) * DAY_MS).map((e) => e.start);
  const last = done.length === 0 ? null : Math.max(...done);
  const reasons: string[] = [];
  if (assignments.some((a) => a.status === "ACTIVE")) {
    if (current.adherence !== null && current.adherence < 0.5) reasons.push("LOW_ADHERENCE");
    if (current.adherence !== null && previous.adherence !== null && Math.round(current.adherence * 1000) <= Math.round(previous.adherence * 1000) - 200)
      reasons.push("DROPPING");
    if (last === null || last < (today - 6) * DAY_MS) reasons.push("INACTIVE_7_DAYS");
  }
  return {
    adherence: {
      window,
      from: isoOf(from),
      to: isoOf(today),
      scheduled: current.scheduled,
      completed: current.completed,
      adherence: current.adherence,
      previousAdherence: previous.adherence,
      lastTrainingAt: last === null ? null : new Date(last).toISOString(),
      needsAttention: reasons.length > 0,
      reasons,
      weeks,
      assignments: listed,
    },
    thisWeek: { scheduled: thisWeek.scheduled, completed: thisWeek.completed },
  };
}

describe("adherence against the rule applied day by day", () => {
  it.each([11, 23, 37, 41])("scene %i: random plans, spans and executions, read on several days with every window", async (seed) => {
    const random = generator(seed);
    // Today: around a year boundary, at any hour.
    let now = Date.parse("2024-12-12T00:00:00Z") + random.int(0, 40) * DAY_MS + random.int(0, 23) * 3_600_000;
    t.clock.set(new Date(now));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t, { name: `Aluno ${seed}` });
    const gym = await gymOf(t, trainer, LETTERS);
    await link(t, gym, student);
    // A PENDING assignment schedules nothing, and lets the student log every training of the gym whatever the others become.
    const everyTraining = await weeklyPlan(
      t,
      gym,
      LETTERS.map((letter) => [letter, "MONDAY"]),
    );
    await assignPlan(t, trainer.token, everyTraining.id, student.id, { startDate: isoOf(Math.floor(now / DAY_MS)) });

    const assignments: Assignment[] = [];
    for (let p = 0; p < 4; p++) {
      const lines: Line[] = Array.from({ length: random.int(1, 4) }, () => ({ letter: random.pick(LETTERS.slice(0, 3)), weekday: random.int(0, 6) }));
      const duration = random.next() < 0.4 ? random.int(1, 20) : undefined;
      const plan = await weeklyPlan(
        t,
        gym,
        lines.map((line) => [line.letter, DAYS[line.weekday]]),
        duration === undefined ? {} : { duration },
      );
      const today = Math.floor(now / DAY_MS);
      const start = today - random.int(-4, 200);
      const assignment = await assignPlan(t, trainer.token, plan.id, student.id, { startDate: isoOf(start) });
      const fate = random.next();
      const row: Assignment = {
        id: assignment.id,
        planId: plan.id,
        planName: plan.name,
        lines,
        status: "PENDING",
        start,
        end: assignment.endDate === null ? null : dayOf(assignment.endDate),
        completedOn: null,
      };
      assignments.push(row);
      if (fate < 0.1) continue; // left PENDING
      await moveAssignment(t, student.token, assignment.id, "accept");
      row.status = "ACTIVE";
      if (fate < 0.2) {
        await moveAssignment(t, trainer.token, assignment.id, "cancel");
        row.status = "CANCELED";
      } else if (fate < 0.45 && start < today) {
        // Completed by the trainer on a day between its start and today, at any hour.
        const completedOn = random.int(start, today);
        t.clock.set(new Date(completedOn * DAY_MS + random.int(0, 23) * 3_600_000));
        await relogin(t, trainer);
        await moveAssignment(t, trainer.token, assignment.id, "complete");
        row.status = "COMPLETED";
        row.completedOn = completedOn;
        t.clock.set(new Date(now));
        await relogin(t, trainer);
      }
    }

    // Executions: bursts in some weeks (several of one training in a week), others scattered, a few after today.
    const executions: Execution[] = [];
    for (let i = 0; i < 45; i++) {
      const day = Math.floor(now / DAY_MS) - random.int(-3, 190);
      const execution = { letter: random.pick(LETTERS), start: day * DAY_MS + random.int(0, 24 * 60 - 61) * 60_000, completed: random.next() < 0.85 };
      executions.push(execution);
      if (random.next() < 0.3) executions.push({ ...execution, start: execution.start + random.int(0, 6) * DAY_MS - random.int(0, 3) * DAY_MS });
    }
    for (const execution of executions)
      await trained(t, gym, student, execution.letter, new Date(execution.start).toISOString(), { completed: execution.completed });

    for (let reading = 0; reading < 3; reading++) {
      for (const window of WINDOWS) {
        const want = expected(assignments, executions, now, window);
        const got = await adherenceOf(t, trainer, student.id, window);
        expect({ seed, reading, ...got }).toEqual({ seed, reading, userId: student.id, ...want.adherence });

        const page = await t.get(`/api/personal/students/adherence?window=${window}`, { token: trainer.token });
        expect(page.status).toBe(200);
        const { weeks: _weeks, assignments: _assignments, ...summary } = want.adherence;
        expect(page.body.content).toEqual([{ userId: student.id, studentName: `Aluno ${seed}`, ...summary }]);
      }
      const dashboard = await t.get("/api/personal/dashboard", { token: trainer.token });
      expect(dashboard.status).toBe(200);
      expect({ seed, reading, ...dashboard.body.sessionsThisWeek }).toEqual({ seed, reading, ...expected(assignments, executions, now, 30).thisWeek });

      // A later day: the windows and ISO weeks fall elsewhere on the same history.
      now += random.int(1, 9) * DAY_MS + random.int(0, 23) * 3_600_000;
      t.clock.set(new Date(now));
      await relogin(t, trainer);
    }
  });
});
