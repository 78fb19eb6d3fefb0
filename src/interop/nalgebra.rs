//! [`nalgebra`] conversions of [`Pose`] (feature `nalgebra`, on by default): the same pose as an
//! `Isometry3<f32>`, a `UnitQuaternion<f32>` and a `Matrix4<f32>`.

use nalgebra::{Isometry3, Matrix4, Quaternion, Translation3, UnitQuaternion};

use crate::trajectory::Pose;

impl Pose {
    /// The orientation as a nalgebra unit quaternion (same rotation, same components).
    ///
    /// # Examples
    /// ```
    /// # use glam::{Quat, Vec3};
    /// # use voxnav::Pose;
    /// let q = Quat::from_rotation_y(0.5);
    /// let pose = Pose { s: 0.0, time: 0.0, position: Vec3::ONE, tangent: q * Vec3::NEG_Z, orientation: q };
    /// let nq = pose.to_unit_quaternion();
    /// assert!((nq.angle() - 0.5).abs() < 1e-6);
    /// assert_eq!((nq.i, nq.j, nq.k, nq.w), (q.x, q.y, q.z, q.w));
    /// ```
    #[must_use]
    pub fn to_unit_quaternion(&self) -> UnitQuaternion<f32> {
        let q = self.orientation;
        UnitQuaternion::new_unchecked(Quaternion::new(q.w, q.x, q.y, q.z))
    }

    /// The pose as a nalgebra isometry: rotation [`to_unit_quaternion`](Self::to_unit_quaternion),
    /// then translation by the position (local to world, like [`Pose::transform`]).
    ///
    /// # Examples
    /// ```
    /// # use glam::{Quat, Vec3};
    /// # use voxnav::Pose;
    /// let pose = Pose { s: 0.0, time: 0.0, position: Vec3::new(1.0, 2.0, 3.0), tangent: Vec3::NEG_Z, orientation: Quat::IDENTITY };
    /// let iso = pose.to_isometry();
    /// assert_eq!(iso.translation.vector, nalgebra::Vector3::new(1.0, 2.0, 3.0));
    /// ```
    #[must_use]
    pub fn to_isometry(&self) -> Isometry3<f32> {
        let p = self.position;
        Isometry3::from_parts(Translation3::new(p.x, p.y, p.z), self.to_unit_quaternion())
    }

    /// The homogeneous transform as a nalgebra matrix, equal to [`Pose::transform`] entry by
    /// entry (both are column-major).
    ///
    /// # Examples
    /// ```
    /// # use glam::{Quat, Vec3};
    /// # use voxnav::Pose;
    /// let q = Quat::from_rotation_x(0.3);
    /// let pose = Pose { s: 0.0, time: 0.0, position: Vec3::X, tangent: q * Vec3::NEG_Z, orientation: q };
    /// assert_eq!(pose.to_matrix4().as_slice(), &pose.transform().to_cols_array()[..]);
    /// ```
    #[must_use]
    pub fn to_matrix4(&self) -> Matrix4<f32> {
        Matrix4::from_column_slice(&self.transform().to_cols_array())
    }
}

impl From<Pose> for Isometry3<f32> {
    fn from(pose: Pose) -> Self {
        pose.to_isometry()
    }
}

impl From<Pose> for UnitQuaternion<f32> {
    fn from(pose: Pose) -> Self {
        pose.to_unit_quaternion()
    }
}

impl From<Pose> for Matrix4<f32> {
    fn from(pose: Pose) -> Self {
        pose.to_matrix4()
    }
}
