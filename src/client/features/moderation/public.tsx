// What other features and the app's pages use of moderation: the Report button. Its dialog loads on first use.
export { ReportButton } from "./components/report-button.tsx";
export type { ReportTarget } from "./components/report-dialog.tsx";
