// Package seeds describes organizations to provision and provisions them through a
// chat.Service: Seed (users, bots, channels, groups; the JSON seed files of `chatserver serve
// --seed`) and Dev, the development organization shared by `chatserver serve --dev` and
// chattest, so that the two never drift apart.
//
// Apply goes through the Service's operations only, so an organization made from a seed is
// exactly what those operations make. It imports chat and the leaf packages.
package seeds
