// The holder's contract lives below the modules (src/platform/personal-data.ts), so a module keeping a person's rows
// never imports privacy; this path stays only for the modules not yet moved to it.
export type { AfterErasure, PersonalDataHolder, PersonalDataSections } from "../../platform/personal-data.js";
