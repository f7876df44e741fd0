// Imported for its effect: the panels' custom elements are defined.
export {};
